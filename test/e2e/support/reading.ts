/**
 * Reading history for the Statistics screens (issue 35): about four months of evenings on two devices that time
 * themselves — measured sessions sent through `POST /reading-sessions`, as a reading app does — and progress
 * saves from an app that does not (Mihon, by its User-Agent), whose time the server infers. The sessions carry
 * fixed ids and a fixed pattern, so seeding again (each screenshot of a run) is accepted and changes nothing.
 */
import { call } from './api';

export const MEASURING_DEVICES = {
  tablet: { id: 'boox-tab-ultra', name: 'Boox Tab Ultra' },
  phone: { id: 'pixel-8', name: 'Pixel 8' },
} as const;
/** An app the server names from its User-Agent and whose time it infers from the gaps between saves. */
export const INFERRING_AGENT = 'Mihon/0.16.5 (Android 14)';

const DAY_MS = 86_400_000;
const DAYS = 120;

/** A small deterministic generator (mulberry32): the same "random" evenings on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** The measured sessions: most evenings of the last DAYS days, a book finished every few sessions. */
export function measuredSessions(bookIds: readonly string[], now = Date.now()) {
  const random = generator(35);
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const sessions = [];
  let count = 0;
  for (let daysAgo = DAYS; daysAgo >= 1; daysAgo--) {
    const chance = random();
    if (chance < 0.4) continue;
    const device = random() < 0.62 ? MEASURING_DEVICES.tablet : MEASURING_DEVICES.phone;
    const minutes = 6 + Math.floor(random() * 95);
    const started = today - daysAgo * DAY_MS + 18 * 3_600_000 + Math.floor(random() * 60) * 60_000;
    const book = bookIds[Math.floor(count / 4) % bookIds.length]!;
    count++;
    sessions.push({
      id: `seed-${daysAgo}`,
      bookId: book,
      deviceId: device.id,
      deviceName: device.name,
      kind: count % 4 === 0 ? 'completed' : 'progress',
      activeDurationMs: minutes * 60_000,
      pagesRead: Math.max(1, Math.round(minutes * 0.7)),
      clientStartedAt: new Date(started).toISOString(),
      clientEndedAt: new Date(started + (minutes + 4) * 60_000).toISOString(),
    });
  }
  return sessions;
}

/**
 * Seeds the reading: the measured sessions, then two progress saves of `inferred` a few seconds apart from the
 * inferring app (its page is left where it was, so other screens of the showcase look the same).
 */
export async function seedReading(
  baseUrl: string,
  token: string,
  bookIds: readonly string[],
  inferred: { bookId: string; page: number },
): Promise<void> {
  const result = await call(baseUrl, 'POST', '/reading-sessions', {
    token,
    json: { sessions: measuredSessions(bookIds) },
  });
  if (result.rejected.length > 0) throw new Error(`sessions rejected: ${JSON.stringify(result.rejected)}`);
  for (let save = 0; save < 2; save++) {
    if (save > 0) await new Promise((resolve) => setTimeout(resolve, 2_500));
    const response = await fetch(new URL(`/api/v1/books/${inferred.bookId}/progress`, baseUrl), {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'User-Agent': INFERRING_AGENT },
      body: JSON.stringify({ current_page: inferred.page }),
    });
    if (!response.ok) throw new Error(`progress save → ${response.status}: ${await response.text()}`);
  }
}
