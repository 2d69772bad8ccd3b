/**
 * Which device did the reading (API.md §2 "Device attribution"; DECISIONS.md §Reading statistics). Reading
 * statistics name the device by the API key a request used; without a key by a hash of the User-Agent, so the
 * devices of one app merge (one key per device keeps them apart), named after the app when it is a known one;
 * KOReader by the device id its sync sends; a client that times its own reading (the web readers, a
 * POST /reading-sessions client) by the device id it sends (`Longbox-Device-Id`, Codex-rs's device header).
 *
 * Only writes from clients that cannot measure have their time *inferred* from the gaps between writes: a
 * client that sends its own device id also sends measured sessions for the same reading, and inferring from
 * its progress writes too would count that reading twice.
 */
import { sha256Hex } from '../lib/encoding';

export interface ReadingDevice {
  /** `api-key:<key id>`, `ua:<hash>`, `koreader:<device id>` or `client:<device id>`. */
  id: string;
  name: string;
  /** Time between this device's progress writes counts as (inferred) reading time. */
  infers: boolean;
}

/** What a request says about the device it comes from. */
export interface DeviceFacts {
  apiKey?: { id: string; name: string };
  userAgent: string | null;
  /** `Longbox-Device-Id`: a client that measures its own reading (and names itself in its sessions). */
  clientDeviceId?: string | null;
  /** The device as KOReader's sync names it (`device_id`, `device`). */
  koreader?: { id: string; name: string } | null;
}

/** The header a measuring client sends with its progress writes (Codex-rs's `X-Codex-Device-Id`). */
export const DEVICE_ID_HEADER = 'Longbox-Device-Id';

/** Device ids and names as clients send them: short, printable (a UUID, a model name). */
export const DEVICE_ID_MAX = 100;
export const DEVICE_NAME_MAX = 100;

/** A client-chosen device id: 1–100 printable ASCII characters without spaces. */
export const isClientDeviceId = (value: string) => /^[\x21-\x7e]{1,100}$/.test(value);

/**
 * Apps people point at Longbox, by a word of their User-Agent: the name the statistics show for them. The
 * order matters where one agent names several (a Mihon fork's agent also says Android).
 */
const KNOWN_APPS: ReadonlyArray<[RegExp, string]> = [
  [/KOReader/i, 'KOReader'],
  [/Komelia/i, 'Komelia'],
  [/Mihon/i, 'Mihon'],
  [/Tachiyomi|TachiyomiSY|J2K/i, 'Tachiyomi'],
  [/Tachimanga/i, 'Tachimanga'],
  [/Paperback/i, 'Paperback'],
  [/Panels/i, 'Panels'],
  [/Chunky/i, 'Chunky'],
  [/Komic/i, 'Komic'],
  [/Moon\+/i, 'Moon+ Reader'],
  [/Thorium/i, 'Thorium Reader'],
  [/PocketBook/i, 'PocketBook'],
  [/Librera/i, 'Librera'],
  [/KyBook/i, 'KyBook'],
  [/Aldiko/i, 'Aldiko'],
  [/Cantook/i, 'Cantook'],
  [/Yomu/i, 'Yomu'],
];

const BROWSERS: ReadonlyArray<[RegExp, string]> = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS/, 'Firefox'],
  [/Chrome\/|CriOS|Chromium/, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const PLATFORMS: ReadonlyArray<[RegExp, string]> = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

const firstMatch = (agent: string, table: ReadonlyArray<[RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(agent))?.[1];

/**
 * A person's name for a User-Agent: a known app's name, a browser as "Firefox on Android", else the agent
 * itself cut short (more useful in a device list than "unknown").
 */
export function agentName(userAgent: string | null): string {
  const agent = (userAgent ?? '').trim();
  if (agent === '') return 'Unknown client';
  const app = firstMatch(agent, KNOWN_APPS);
  if (app) return app;
  if (/^Mozilla\//.test(agent)) {
    const browser = firstMatch(agent, BROWSERS);
    const platform = firstMatch(agent, PLATFORMS);
    if (browser && platform) return `${browser} on ${platform}`;
    if (browser) return browser;
  }
  return agent.slice(0, 60);
}

const clip = (name: string) => name.trim().slice(0, DEVICE_NAME_MAX) || 'Unnamed device';

/**
 * The device a progress write comes from. KOReader names itself (its id is the most precise this surface has);
 * a measuring client by its header; otherwise the API key, else the User-Agent's hash.
 */
export async function readingDeviceOf(facts: DeviceFacts): Promise<ReadingDevice> {
  if (facts.koreader?.id) {
    return { id: `koreader:${facts.koreader.id}`, name: clip(facts.koreader.name || 'KOReader'), infers: true };
  }
  if (facts.clientDeviceId && isClientDeviceId(facts.clientDeviceId)) {
    return { id: `client:${facts.clientDeviceId}`, name: clip(agentName(facts.userAgent)), infers: false };
  }
  if (facts.apiKey) return { id: `api-key:${facts.apiKey.id}`, name: clip(facts.apiKey.name), infers: true };
  return { id: await userAgentDeviceId(facts.userAgent), name: clip(agentName(facts.userAgent)), infers: true };
}

/** `ua:` and the first 16 hex digits of the User-Agent's SHA-256: the same agent is the same device. */
export async function userAgentDeviceId(userAgent: string | null): Promise<string> {
  return `ua:${(await sha256Hex(userAgent ?? '')).slice(0, 16)}`;
}

/** The device a measured session names (its `deviceId`, `deviceName`): a client device. */
export function measuringDevice(deviceId: string, deviceName: string | null | undefined, userAgent: string | null) {
  return { id: `client:${deviceId}`, name: clip(deviceName ?? agentName(userAgent)) };
}

/**
 * The device of an uploaded KOReader statistics database (DECISIONS.md §Reading statistics, "KOReader's
 * statistics"): the database names none, so it is the request's as §2 says — the API key, named after it, else
 * the User-Agent's hash, named "KOReader" (whatever sent the file — curl, a script — the reading is KOReader's).
 * Only sittings that land in no sitting of another device take it: most land in the one KOReader's own sync
 * opened for the same reading, and keep its device.
 */
export async function koreaderStatisticsDevice(
  apiKey: { id: string; name: string } | undefined,
  userAgent: string | null,
): Promise<{ id: string; name: string }> {
  if (apiKey) return { id: `api-key:${apiKey.id}`, name: clip(apiKey.name) };
  return { id: await userAgentDeviceId(userAgent), name: 'KOReader' };
}
