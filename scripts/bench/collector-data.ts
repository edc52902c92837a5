// The collector bench's data (scripts/bench-collector.ts): a year of a site's visits written
// straight into the collector's tables in bulk (not through HTTP: a million rows in seconds), as
// the collector itself would have stored them (collector/server/store/*.ts).
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { openStore } from '../../collector/server/store';
import { describeAgent, pageAddress, sourceOf } from '../../collector/server/visitor';

const DAY = 24 * 60 * 60 * 1000;
/** The site of the bench's pages (PAGEPULSE_SITES of the collector under test). */
export const BENCH_SITE = 'http://lichtwerk.test';
/** The page with the clicks: the overlay reads it. */
export const HOME = `${BENCH_SITE}/`;

/** Where the data goes. */
export type Target = { sqlite: string } | { postgres: string };

/** A small deterministic random source (mulberry32): the same data on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pick from weighted choices. */
const pick = <T>(r: number, choices: ReadonlyArray<readonly [T, number]>): T => {
  let at = r * choices.reduce((s, [, w]) => s + w, 0);
  for (const [value, weight] of choices) if ((at -= weight) < 0) return value;
  return choices[choices.length - 1]![0];
};

/** Rows for one table: its columns with their PostgreSQL types, and the values. */
interface Table {
  name: string;
  columns: ReadonlyArray<readonly [string, string]>;
  rows: unknown[][];
}

/** Insert the tables: SQLite in transactions of prepared inserts, PostgreSQL through `unnest` of arrays. */
async function insert(target: Target, tables: readonly Table[]): Promise<void> {
  if ('sqlite' in target) {
    const db = new Database(target.sqlite);
    // bulk: no sync per transaction, and the indexes' pages in memory (random session ids)
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -1048576');
    try {
      for (const table of tables) {
        const statement = db.prepare(
          `INSERT INTO ${table.name} (${table.columns.map(([c]) => c).join(', ')}) VALUES (${table.columns.map(() => '?').join(', ')})`,
        );
        for (let i = 0; i < table.rows.length; i += 100_000)
          db.transaction(() => {
            for (const row of table.rows.slice(i, i + 100_000)) statement.run(...row);
          })();
      }
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: target.postgres });
  await client.connect();
  try {
    for (const table of tables) {
      const unnest = table.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
      for (let i = 0; i < table.rows.length; i += 50_000) {
        const part = table.rows.slice(i, i + 50_000);
        await client.query(
          `INSERT INTO ${table.name} (${table.columns.map(([c]) => c).join(', ')}) SELECT * FROM unnest(${unnest})`,
          table.columns.map((_, c) => part.map((row) => row[c])),
        );
      }
      await client.query(`ANALYZE ${table.name}`);
    }
    await client.query("SELECT setval(pg_get_serial_sequence('visits', 'id'), (SELECT MAX(id) FROM visits))");
  } finally {
    await client.end();
  }
}

/** Countries of the bench's visitors: the German-speaking ones, then a tail picked evenly. */
const DACH = [
  ['DE', 80],
  ['AT', 10],
  ['CH', 10],
] as const;
const TAIL =
  'US GB FR NL IT ES PL BE DK SE NO FI CZ HU RO PT GR IE LU SK SI HR BG TR UA RU IN CN JP KR BR CA AU MX AR ZA EG IL AE SG'.split(
    ' ',
  );

/** What was written: rows per table. */
export type Written = Record<string, number>;

/**
 * `views` page views over the 365 days up to `now` (about 3 per visit, 40 % bounces, one session a
 * visit; 300 pages, the first ones most visited; referrers, campaigns, devices, browsers, systems,
 * countries, widths),
 * `views` clicks on the home page over 400 selectors, `views` cookie-consent records (a generic
 * choice, then Statistiken for half and Marketing for a third of the visitors, each with a consent
 * ID) and a form consent per 200 page views. The schema first (migrations).
 */
export async function writeDataset(target: Target, views: number, now: number): Promise<Written> {
  const store = await openStore(target, {
    parsers: { agent: describeAgent, page: pageAddress, source: sourceOf },
    lifetimes: { sessionAbsoluteMs: 1, sessionIdleMs: 1, deviceMs: 1, attemptWindowMs: 1 },
  });
  await store.close();
  const r = random(views);
  const id = (n: number) => createHash('sha256').update(`bench-${n}`).digest('hex');
  const pages = Array.from({ length: 300 }, (_, i) => (i === 0 ? HOME : `${BENCH_SITE}/seite-${i}`));
  const page = () => pages[Math.min(299, Math.floor(300 * r() ** 3))]!;
  const sessions: unknown[][] = [];
  const visits: unknown[][] = [];
  const pageViews: unknown[][] = [];
  for (let v = 1; pageViews.length < views; v++) {
    const session = id(v);
    const count = Math.min(views - pageViews.length, r() < 0.4 ? 1 : 2 + Math.floor(r() * 5));
    const start = now - Math.floor(r() * 365 * DAY);
    const device = pick(r(), [
      ['desktop', 60],
      ['mobile', 35],
      ['tablet', 5],
    ] as const);
    const browser = pick(r(), [
      ['Chrome', 55],
      ['Safari', 25],
      ['Firefox', 12],
      ['Microsoft Edge', 8],
    ] as const);
    const width = device === 'mobile' ? 390 : device === 'tablet' ? 820 : 1280 + Math.floor(r() * 3) * 320;
    const seen = Array.from({ length: count }, (_, k) => ({ page: k === 0 ? page() : page(), at: start + k * 45_000 }));
    const last = seen[seen.length - 1]!;
    sessions.push([session, start, last.at, 'Mozilla/5.0 (bench)', width, 800, device, browser]);
    const referrer =
      r() < 0.15
        ? pick(r(), [
            ['www.google.com', 6],
            ['www.bing.com', 1],
            ['duckduckgo.com', 1],
            ['www.facebook.com', 2],
          ] as const)
        : null;
    const utm =
      r() < 0.05
        ? pick(r(), [
            ['newsletter', 3],
            ['instagram', 2],
            ['flyer', 1],
          ] as const)
        : null;
    // the bundle's referrer field: another site's origin under the browsers' default policy, path `/`
    const from = referrer ? ['/', sourceOf(referrer)] : [null, null];
    const os =
      device === 'desktop'
        ? pick(r(), [
            ['Windows', 70],
            ['macOS', 22],
            ['Linux', 6],
            ['Chrome OS', 2],
          ] as const)
        : pick(r(), [
            ['Android', 60],
            ['iOS', 40],
          ] as const);
    // a German site's visitors: mostly DACH, then a tail of 40 countries (and unknown: private addresses)
    const country = r() < 0.85 ? pick(r(), DACH) : r() < 0.1 ? null : TAIL[Math.floor(r() * TAIL.length)]!;
    visits.push([
      v,
      session,
      start,
      last.at,
      count,
      seen[0]!.page,
      last.page,
      referrer,
      ...from,
      utm,
      device,
      browser,
      width,
      country,
      os,
    ]);
    for (const view of seen) pageViews.push([v, session, view.page, view.at, view.at + 5_000 + Math.floor(r() * 175_000)]);
  }
  const clicks = Array.from({ length: views }, (_, i) => [
    id(1 + (i % sessions.length)),
    HOME,
    `main > section:nth-child(2) > div.item:nth-child(${1 + Math.floor(400 * r() ** 2)}) > a`,
    now - Math.floor(r() * 365 * DAY),
  ]);
  const consents: unknown[][] = [];
  for (let n = 0; consents.length < views; n++) {
    const session = id(10_000_000 + n);
    const at = now - Math.floor(r() * 365 * DAY);
    const consentId = createHash('sha256').update(`consent-${n}`).digest('base64url').slice(0, 22);
    const state = [1, 1, 0, 0];
    consents.push([session, null, 1, 'Mozilla/5.0 (bench)', '203.0.113.0', at, consentId, ...state]);
    if (r() < 0.5 && consents.length < views) {
      state[2] = 1;
      consents.push([session, 3, 1, 'Mozilla/5.0 (bench)', '203.0.113.0', at + 1, consentId, ...state]);
    }
    if (r() < 0.33 && consents.length < views) {
      state[3] = 1;
      consents.push([session, 4, 1, 'Mozilla/5.0 (bench)', '203.0.113.0', at + 2, consentId, ...state]);
    }
  }
  const forms = Array.from({ length: Math.ceil(views / 200) }, (_, i) => [
    id(20_000_000 + i),
    `${BENCH_SITE}/kontakt`,
    'kontaktformular',
    '',
    JSON.stringify({ Name: `Besucher ${i}`, 'E-Mail': `besucher${i}@example.org` }),
    'Mozilla/5.0 (bench)',
    '203.0.113.0',
    now - Math.floor(r() * 365 * DAY),
  ]);
  // the rows in the order a collector writes them, as they happen: by their time (a visit's id in
  // the order visits began, its page views following). Generated in random time order, a year's range
  // read every row from another page of the file (the bench's 12 months filtered by page and browser
  // read its 357,000 visits at 3 to 6 us a row), which no collector's file looks like.
  const byTime = (rows: unknown[][], at: number) => rows.sort((a, b) => Number(a[at]) - Number(b[at]));
  byTime(visits, 2);
  const renumbered = new Map(visits.map((row, i) => [row[0], i + 1]));
  for (const row of visits) row[0] = renumbered.get(row[0]);
  for (const row of pageViews) row[0] = renumbered.get(row[0]);
  byTime(sessions, 1);
  byTime(pageViews, 3);
  byTime(clicks, 3);
  byTime(consents, 5);
  byTime(forms, 7);
  const T = (name: string, columns: ReadonlyArray<readonly [string, string]>, rows: unknown[][]): Table => ({
    name,
    columns,
    rows,
  });
  const tables = [
    T('sessions', [['id', 'text'], ['first_seen', 'bigint'], ['last_seen', 'bigint'], ['user_agent', 'text'], ['device_width', 'int'], ['device_height', 'int'], ['device', 'text'], ['browser', 'text']], sessions), // prettier-ignore
    T('visits', [['id', 'bigint'], ['session_id', 'text'], ['started_at', 'bigint'], ['last_view_at', 'bigint'], ['views', 'int'], ['entry_page', 'text'], ['exit_page', 'text'], ['referrer', 'text'], ['referrer_path', 'text'], ['source', 'text'], ['utm_source', 'text'], ['device', 'text'], ['browser', 'text'], ['screen_width', 'int'], ['country', 'text'], ['os', 'text']], visits), // prettier-ignore
    T('page_views', [['visit_id', 'bigint'], ['session_id', 'text'], ['page', 'text'], ['at', 'bigint'], ['last_at', 'bigint']], pageViews), // prettier-ignore
    T(
      'clicks',
      [
        ['session_id', 'text'],
        ['page', 'text'],
        ['selector', 'text'],
        ['at', 'bigint'],
      ],
      clicks,
    ),
    T('cookie_consents', [['session_id', 'text'], ['category', 'int'], ['granted', 'int'], ['user_agent', 'text'], ['ip', 'text'], ['at', 'bigint'], ['consent_id', 'text'], ['s1', 'int'], ['s2', 'int'], ['s3', 'int'], ['s4', 'int']], consents), // prettier-ignore
    T('form_consents', [['session_id', 'text'], ['url', 'text'], ['form_id', 'text'], ['form_name', 'text'], ['fields', 'text'], ['user_agent', 'text'], ['ip', 'text'], ['at', 'bigint']], forms), // prettier-ignore
  ];
  await insert(target, tables);
  return Object.fromEntries(tables.map((t) => [t.name, t.rows.length]));
}
