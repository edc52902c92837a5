import { createHash } from 'node:crypto';
import type { Harness } from './collector';

/**
 * Test data in bulk, written straight into the collector's tables (the readers' tests need tens of
 * thousands of rows in a second, not through HTTP). The rows are what the collector itself would
 * have stored for the same visits (store/visits.ts, clicks.ts, consents.ts).
 */
const DAY = 24 * 60 * 60 * 1000;
const session = (n: number) => createHash('sha256').update(`seed-${n}`).digest('hex');

/** `n` clicks on `page`, over `selectors` selectors and `sessions` visitor sessions, in the last 30 days. */
export async function seedClicks(h: Harness, page: string, n: number, selectors = 400, sessions = 2000): Promise<void> {
  const rows = Array.from({ length: n }, (_, i) => [
    session(i % sessions),
    page,
    `main>div.s${(i * 7) % selectors}>a`,
    h.clock.now - (i % 30) * DAY - 1000,
  ]);
  await h.execute('INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)', rows);
}

/**
 * `n` page views over the `days` days before the clock, by `n / perVisitor` visitors, each one
 * visit of `perVisitor` pages of `pages`, one minute apart, 30 s on each.
 */
export async function seedPageViews(h: Harness, n: number, days: number, perVisitor = 5, pages = 50): Promise<void> {
  const visitors = Math.ceil(n / perVisitor);
  const sessions: unknown[][] = [];
  const visits: unknown[][] = [];
  const views: unknown[][] = [];
  for (let v = 0; v < visitors; v++) {
    const id = session(1_000_000 + v);
    const start = h.clock.now - DAY - Math.floor((v / visitors) * days * DAY);
    const count = Math.min(perVisitor, n - views.length);
    const page = (p: number) => `http://lichtwerk.test/seite-${(v + p * 7) % pages}`;
    const last = start + (count - 1) * 60_000;
    sessions.push([
      id,
      start,
      last,
      'Seed/1.0',
      360 + (v % 4) * 500,
      800,
      v % 3 ? 'desktop' : 'mobile',
      v % 2 ? 'Chrome' : 'Firefox',
    ]);
    visits.push([
      v + 1,
      id,
      start,
      last,
      count,
      page(0),
      page(count - 1),
      v % 5 === 0 ? 'newsletter' : null,
      v % 3 ? 'desktop' : 'mobile',
      v % 2 ? 'Chrome' : 'Firefox',
      360 + (v % 4) * 500,
    ]);
    for (let p = 0; p < count; p++) views.push([v + 1, id, page(p), start + p * 60_000, start + p * 60_000 + 30_000]);
  }
  await h.execute(
    'INSERT INTO sessions (id, first_seen, last_seen, user_agent, device_width, device_height, device, browser) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    sessions,
  );
  await h.execute(
    `INSERT INTO visits (id, session_id, started_at, last_view_at, views, entry_page, exit_page, utm_source, device, browser, screen_width)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    visits,
  );
  await h.execute('INSERT INTO page_views (visit_id, session_id, page, at, last_at) VALUES (?, ?, ?, ?, ?)', views);
  // PostgreSQL's identity goes on from the ids given here
  if (h.engine === 'postgres')
    await h.query("SELECT setval(pg_get_serial_sequence('visits', 'id'), (SELECT MAX(id) FROM visits))");
}

/** `n` cookie-consent records over the `days` days before the clock: a generic choice and, for every other visitor, Statistiken. */
export async function seedConsents(h: Harness, n: number, days: number): Promise<void> {
  const rows: unknown[][] = [];
  for (let i = 0; rows.length < n; i++) {
    const at = h.clock.now - DAY - Math.floor((i / (n / 2)) * days * DAY);
    // the state after each record: the opt-out default, then Statistiken as chosen
    rows.push([session(2_000_000 + i), null, 1, 'Seed/1.0', '203.0.113.0', at, 1, 1, 0, 0]);
    if (rows.length < n) rows.push([session(2_000_000 + i), 3, i % 2, 'Seed/1.0', '203.0.113.0', at, 1, 1, i % 2, 0]);
  }
  await h.execute(
    'INSERT INTO cookie_consents (session_id, category, granted, user_agent, ip, at, s1, s2, s3, s4) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    rows,
  );
}
