/**
 * GET /reading-stats adds up exactly what its sittings say (issue 35, Build 3; docs/DECISIONS.md §Reading
 * statistics): a reader's year of sittings on several devices, series, formats and credit lists — some finished,
 * some without a duration or pages, some books first read before the window — and every figure of every panel is
 * compared with the same figures counted here, in the test, from the sittings themselves. Then the reader loses a
 * library and a series (age restriction): every panel counts the books they still see, and only those. The
 * admin's GET /admin/reading-stats is held to the same: every reader's sittings, counted here per period, series,
 * user and library, readers included.
 *
 * The statements behind the endpoints group the window's sittings per book (per user and book for the server)
 * and look each book up once (reading-stats.repository.ts); this test pins what that must come to, whatever
 * their shape. Days are counted in Tokyo (UTC+9 all year), UTC and Paris, whose clocks go forward on 29 March.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readingSessions } from '../../src/db/schema';
import { db, seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';

type Sitting = typeof readingSessions.$inferInsert;
interface BookInfo {
  id: string;
  seriesId: string;
  seriesName: string;
  libraryId: string;
  libraryName: string;
  format: string;
  authors: Array<{ name: string; role: string }>;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FROM = Date.parse('2026-02-01T00:00:00Z');
const TO = Date.parse('2026-04-01T00:00:00Z');
/** Asia/Tokyo keeps UTC+9 all year: its local day of a UTC instant. */
const TOKYO = 9 * HOUR;
/** Paris's local day of a UTC instant, as the runtime's time zone data has it (the figures' own count). */
const parisDay = (ms: number) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Europe/Paris',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ms);

/** A small deterministic generator (mulberry32), so every run reads the same year. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function catalog() {
  const admin = await setupAdmin();
  const kept = await seedLibrary({ name: 'Kept' });
  const lost = await seedLibrary({ name: 'Lost' });
  const shelves = [
    { library: kept, title: 'Saga', ageRating: 12 },
    { library: kept, title: 'Paper Girls', ageRating: 18 },
    { library: lost, title: 'Y: The Last Man', ageRating: null },
  ];
  const credits = [
    [
      { name: 'Ann Writer', role: 'writer' },
      { name: 'Bob Penciller', role: 'penciller' },
    ],
    [
      { name: 'Ann Writer', role: 'writer' },
      { name: 'Cy Nobody', role: '' },
    ],
    [
      { name: 'Dee Author', role: 'author' },
      { name: '', role: 'writer' },
    ],
    [],
  ];
  const formats = ['cbz', 'pdf', 'epub', 'cbz'] as const;
  const books: BookInfo[] = [];
  for (const [s, shelf] of shelves.entries()) {
    const series = await seedSeries(shelf.library, { title: shelf.title, ageRating: shelf.ageRating });
    for (let i = 0; i < 4; i++) {
      const authors = credits[(s + i) % credits.length] as BookInfo['authors'];
      const format = formats[(s * 2 + i) % formats.length] as (typeof formats)[number];
      const book = await seedBook(series, { title: `${shelf.title} ${i + 1}`, fileFormat: format, authors });
      books.push({
        id: book.id,
        seriesId: series.id,
        seriesName: shelf.title,
        libraryId: shelf.library.id,
        libraryName: shelf.library.name,
        format,
        authors,
      });
    }
  }
  return { admin, kept, books };
}

/**
 * About 160 sittings of the reader in the window on three devices, two at half past midnight in Paris (before and
 * after its clocks went forward), and a few of some books before the window.
 */
function sittingsOf(userId: string, books: BookInfo[], seed = 35): Sitting[] {
  const random = generator(seed);
  const devices = [
    ['api-key:phone', ['Phone', 'Phone (renamed key)']],
    ['koreader:kobo', ['Kobo Libra 2']],
    ['client:desk', ['Firefox on Linux']],
  ] as const;
  const sittings: Sitting[] = [];
  let at = FROM + 3 * HOUR;
  while (at < TO - DAY) {
    const book = books[Math.floor(random() * books.length)] as BookInfo;
    const [deviceId, names] = devices[Math.floor(random() * devices.length)] as (typeof devices)[number];
    const span = (5 + Math.floor(random() * 55)) * 60_000;
    const kind = random();
    sittings.push({
      id: crypto.randomUUID(),
      userId,
      bookId: book.id,
      deviceId,
      // The phone's key was renamed in March: its latest name is the one shown.
      deviceName: names[at > Date.parse('2026-03-01T00:00:00Z') ? names.length - 1 : 0] as string,
      startedAt: new Date(at).toISOString(),
      endedAt: new Date(at + span).toISOString(),
      measuredMs: kind < 0.5 ? Math.floor(span * 0.8) : null,
      inferredMs: kind >= 0.5 && kind < 0.9 ? span : null,
      pagesRead: random() < 0.85 ? 1 + Math.floor(random() * 30) : null,
      lastPage: 10,
      finished: random() < 0.12,
    });
    // Sittings an hour to a day and a half apart: several a day, some days none, some near local midnight.
    at += HOUR + Math.floor(random() * 35 * HOUR);
  }
  /** A measured sitting on the desk, starting at `start`. */
  const desk = (book: BookInfo, start: number, minutes: number, pagesRead: number): Sitting => ({
    id: crypto.randomUUID(),
    userId,
    bookId: book.id,
    deviceId: 'client:desk',
    deviceName: 'Firefox on Linux',
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(start + minutes * 60_000).toISOString(),
    measuredMs: (minutes / 2) * 60_000,
    inferredMs: null,
    pagesRead,
    lastPage: pagesRead,
    finished: false,
  });
  // 00:30 in Paris on 21 March (23:30 UTC, winter time) and on 31 March (22:30 UTC, summer time): a window that
  // kept either offset throughout would put one of them on the day before.
  for (const [i, started] of ['2026-03-20T23:30:00Z', '2026-03-30T22:30:00Z'].entries()) {
    sittings.push(desk(books[(seed + i) % books.length] as BookInfo, Date.parse(started), 20, 12));
  }
  // Three books were first opened in January: they are read in the window but not started in it.
  for (const [i, book] of books.slice(0, 3).entries()) sittings.push(desk(book, FROM - (i + 2) * DAY, 60, 5));
  return sittings;
}

async function store(sittings: Sitting[]) {
  // D1 binds at most 100 parameters a statement: 12 columns, 8 sittings each.
  const inserts = [];
  for (let i = 0; i < sittings.length; i += 8)
    inserts.push(db.insert(readingSessions).values(sittings.slice(i, i + 8)));
  await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
}

// --- The figures, counted from the sittings (DECISIONS.md §Reading statistics restates what each one is). ---

interface Options {
  /** Local day (YYYY-MM-DD) of a UTC instant. */
  day: (ms: number) => string;
  granularity: 'day' | 'week' | 'month';
  sort: 'time' | 'pages' | 'completions';
  limit: number;
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The window's sittings of books in `visible`. */
const windowOf = (all: Sitting[], visible: Set<string>) =>
  all.filter((s) => {
    const at = Date.parse(s.startedAt);
    return at >= FROM && at < TO && visible.has(s.bookId);
  });

const readersOf = (group: Sitting[]) => new Set(group.map((s) => s.userId)).size;

function bucketOf(day: string, granularity: Options['granularity']) {
  if (granularity === 'month') return `${day.slice(0, 7)}-01`;
  if (granularity === 'day') return day;
  const date = new Date(`${day}T00:00:00Z`);
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return utcDay(date.getTime() - sinceMonday * DAY);
}

function measures(group: Sitting[]) {
  const sum = (f: (s: Sitting) => number | null | undefined) => group.reduce((n, s) => n + (f(s) ?? 0), 0);
  const measuredMs = sum((s) => s.measuredMs);
  const inferredMs = sum((s) => s.inferredMs);
  return {
    duration: { measuredMs, inferredMs, totalMs: measuredMs + inferredMs },
    pagesRead: sum((s) => s.pagesRead),
    sessions: group.length,
    books: new Set(group.map((s) => s.bookId)).size,
    booksFinished: new Set(group.filter((s) => s.finished).map((s) => s.bookId)).size,
  };
}

type Measures = ReturnType<typeof measures>;
const rankOf = (sort: Options['sort']) => (m: Measures) =>
  sort === 'pages' ? m.pagesRead : sort === 'completions' ? m.booksFinished : m.duration.totalMs;
const latest = (group: Sitting[]) => group.reduce((a, b) => ((a.endedAt ?? '') > (b.endedAt ?? '') ? a : b));

/** Groups `sittings` by `keys` (a sitting may fall in several groups: one per credited writer). */
function groups(sittings: Sitting[], keys: (s: Sitting) => string[]) {
  const out = new Map<string, Sitting[]>();
  for (const s of sittings) for (const k of keys(s)) out.set(k, [...(out.get(k) ?? []), s]);
  return [...out.entries()].map(([key, group]) => ({ key, group, ...measures(group) }));
}

/** The first `limit` by rank (ties by key), as the statement picks them; then shown by rank, ties by key. */
function ranked<T extends Measures & { key: string }>(list: T[], options: Options, limit = Number.POSITIVE_INFINITY) {
  const rank = rankOf(options.sort);
  const byBinaryKey = (a: T, b: T) => rank(b) - rank(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  return list
    .sort(byBinaryKey)
    .slice(0, limit)
    .sort((a, b) => rank(b) - rank(a) || a.key.localeCompare(b.key));
}

function expected(all: Sitting[], visible: BookInfo[], options: Options) {
  const book = new Map(visible.map((b) => [b.id, b]));
  const inWindow = windowOf(all, new Set(book.keys()));
  const startedBefore = new Set(all.filter((s) => Date.parse(s.startedAt) < FROM).map((s) => s.bookId));
  const { duration, pagesRead, sessions, books, booksFinished } = measures(inWindow);
  const of = (s: Sitting) => book.get(s.bookId) as BookInfo;
  const writers = (s: Sitting) =>
    of(s)
      .authors.filter((a) => ['writer', 'author', ''].includes(a.role) && a.name !== '')
      .map((a) => a.name);
  const bare = ({ group: _group, key: _key, ...m }: Measures & { key: string; group: Sitting[] }) => m;
  return {
    summary: {
      duration,
      pagesRead,
      sessions,
      books,
      booksFinished,
      booksStarted: new Set(inWindow.map((s) => s.bookId).filter((id) => !startedBefore.has(id))).size,
      sessionsWithoutDuration: inWindow.filter((s) => s.measuredMs == null && s.inferredMs == null).length,
      sessionsWithoutPages: inWindow.filter((s) => s.pagesRead == null).length,
    },
    periods: groups(inWindow, (s) => [bucketOf(options.day(Date.parse(s.startedAt)), options.granularity)])
      .sort((a, b) => a.key.localeCompare(b.key))
      .map((g) => ({ bucket: g.key, ...bare(g) })),
    devices: ranked(
      groups(inWindow, (s) => [s.deviceId]),
      options,
    ).map((g) => ({
      deviceId: g.key,
      deviceName: latest(g.group).deviceName,
      ...bare(g),
      lastReadAt: latest(g.group).endedAt,
    })),
    series: ranked(
      groups(inWindow, (s) => [of(s).seriesId]),
      options,
      options.limit,
    ).map((g) => ({ seriesId: g.key, seriesName: of(g.group[0] as Sitting).seriesName, ...bare(g) })),
    authors: ranked(groups(inWindow, writers), options, options.limit).map((g) => ({ name: g.key, ...bare(g) })),
    formats: ranked(
      groups(inWindow, (s) => [of(s).format]),
      options,
    ).map((g) => ({ format: g.key, ...bare(g) })),
  };
}

/**
 * The server's figures for an admin (every book visible): every user's sittings, with how many people read in
 * the whole window, each series and each library.
 */
function expectedServer(all: Sitting[], books: BookInfo[], usernames: Map<string, string>, options: Options) {
  const book = new Map(books.map((b) => [b.id, b]));
  const inWindow = windowOf(all, new Set(book.keys()));
  const of = (s: Sitting) => book.get(s.bookId) as BookInfo;
  const bare = ({ group: _group, key: _key, ...m }: Measures & { key: string; group: Sitting[] }) => m;
  return {
    summary: { ...measures(inWindow), readers: readersOf(inWindow) },
    periods: groups(inWindow, (s) => [bucketOf(options.day(Date.parse(s.startedAt)), options.granularity)])
      .sort((a, b) => a.key.localeCompare(b.key))
      .map((g) => ({ bucket: g.key, ...bare(g) })),
    series: ranked(
      groups(inWindow, (s) => [of(s).seriesId]),
      options,
      options.limit,
    ).map((g) => ({
      seriesId: g.key,
      seriesName: of(g.group[0] as Sitting).seriesName,
      ...bare(g),
      readers: readersOf(g.group),
    })),
    users: ranked(
      groups(inWindow, (s) => [s.userId]),
      options,
      options.limit,
    ).map((g) => ({ userId: g.key, username: usernames.get(g.key), ...bare(g) })),
    libraries: ranked(
      groups(inWindow, (s) => [of(s).libraryId]),
      options,
    ).map((g) => ({
      libraryId: g.key,
      libraryName: of(g.group[0] as Sitting).libraryName,
      ...bare(g),
      readers: readersOf(g.group),
    })),
  };
}

async function fetchStats(path: string, auth: Credentials, query: string) {
  const response = await api(`${path}?from=${new Date(FROM).toISOString()}&to=${new Date(TO).toISOString()}&${query}`, {
    auth,
  });
  expect(response.status, response.text).toBe(200);
  return response.body;
}

async function statsOf(auth: Credentials, query: string) {
  const { summary, periods, devices, series, authors, formats } = await fetchStats('/reading-stats', auth, query);
  return { summary, periods, devices, series, authors, formats };
}

async function serverStatsOf(auth: Credentials, query: string) {
  const { summary, periods, series, users, libraries } = await fetchStats('/admin/reading-stats', auth, query);
  return { summary, periods, series, users, libraries };
}

const CASES: Array<[string, Options]> = [
  ['tz=Asia/Tokyo', { day: (ms) => utcDay(ms + TOKYO), granularity: 'day', sort: 'time', limit: 10 }],
  ['tz=Europe/Paris', { day: parisDay, granularity: 'day', sort: 'time', limit: 10 }],
  ['granularity=week&sort=pages&seriesLimit=2', { day: utcDay, granularity: 'week', sort: 'pages', limit: 2 }],
  [
    'granularity=month&sort=completions&seriesLimit=1&tz=Asia/Tokyo',
    { day: (ms) => utcDay(ms + TOKYO), granularity: 'month', sort: 'completions', limit: 1 },
  ],
];

describe('GET /reading-stats adds up its sittings (issue 35, Build 3)', () => {
  it('every panel, in several zones, granularities and rankings; then only the books the reader still sees', async () => {
    const { admin, kept, books } = await catalog();
    const reader = await createUser(admin.auth);
    const auth = (await login(reader.username, reader.password)).auth;
    const sittings = sittingsOf(reader.id, books);
    await store(sittings);
    // Someone else's reading never shows in the reader's figures.
    const other = await createUser(admin.auth);
    await store(sittingsOf(other.id, books).slice(0, 20));
    const [stored] = await db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM reading_sessions WHERE user_id = ${reader.id}`,
    );
    expect(stored?.n).toBe(sittings.length);

    for (const [query, options] of CASES) {
      const want = expected(sittings, books, options);
      expect(want.summary.sessions).toBeGreaterThan(40);
      expect(want.summary.booksStarted).toBe(want.summary.books - 3);
      expect(await statsOf(auth, query), query).toEqual(want);
    }

    // The reader keeps one library, and there loses the series rated 18.
    const restricted = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharedLibraryIds: [kept.id], ageRestriction: { age: 18, restriction: 'EXCLUDE' } },
    });
    expect(restricted.status, restricted.text).toBe(200);
    const seen = books.filter((b) => b.seriesName === 'Saga');
    for (const [query, options] of CASES) {
      const want = expected(sittings, seen, options);
      expect(want.summary.books).toBe(4);
      expect(await statsOf(auth, query), query).toEqual(want);
    }
  }, 120_000);
});

describe("GET /admin/reading-stats adds up every reader's sittings (issue 35, Build 5)", () => {
  it('summary, periods, series, users and libraries, with their readers, in several zones, granularities and rankings', async () => {
    const { admin, books } = await catalog();
    const usernames = new Map<string, string>();
    const sittings: Sitting[] = [];
    // Three readers of different habits: a year each, and one who read a few weeks only.
    for (const [seed, take] of [
      [35, Number.POSITIVE_INFINITY],
      [36, Number.POSITIVE_INFINITY],
      [37, 25],
    ] as const) {
      const reader = await createUser(admin.auth);
      usernames.set(reader.id, reader.username);
      sittings.push(...sittingsOf(reader.id, books, seed).slice(0, take));
    }
    await store(sittings);
    for (const [query, options] of CASES) {
      const want = expectedServer(sittings, books, usernames, options);
      expect(want.summary.readers).toBe(3);
      expect(want.libraries).toHaveLength(2);
      expect(await serverStatsOf(admin.auth, query), query).toEqual(want);
    }
  }, 120_000);
});
