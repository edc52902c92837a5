import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SELECTORS_PER_SESSION } from '../../collector/server/store/clicks';
import { SESSION_COOKIE } from '../../collector/server/visitor/session';
import { closeHarness, type Harness, startCollector, STREAM, type Visitor } from '../support/collector';

// One session's writes sent at the same moment come out as if one came after the other, on both
// engines: the bundle sends a consent choice's log calls in parallel, a page's clicks can come in a
// burst, and tabs opened together send their first beats together. (On PostgreSQL each read its
// own snapshot and wrote past the others': one category's state lost, a session's click caps passed.)
let h: Harness | null = null;
afterEach(async () => {
  await closeHarness(h);
  h = null;
});

const PAGE = 'http://lichtwerk.test/galerie';
const GDPR = '/index.php?option=com_gdpr&task=user.';
const start = async () => (h = await startCollector({ visitorRate: { burst: 100_000, perSecond: 100_000 } }));

/** A visitor whose session cookie is already set (a browser with the cookie of an earlier page). */
const visitorWithSession = (): Visitor => {
  const v = h!.visitor();
  v.cookie = `${SESSION_COOKIE}=${randomBytes(16).toString('hex')}`;
  return v;
};

describe("one session's writes at the same moment", () => {
  it('"allow all": the generic choice and categories 3 and 4 sent at once leave both categories on', async () => {
    await start();
    const visitors = Array.from({ length: 12 }, visitorWithSession);
    await Promise.all(
      visitors.map((v) =>
        Promise.all([
          v.post(`${GDPR}processGenericCookieCategories`, [['gdpr_generic_cookie_consent', '1']]),
          v.post(`${GDPR}processCookieCategory`, [
            ['gdpr_cookie_category', '3'],
            ['gdpr_cookie_category_state', '0'],
          ]),
          v.post(`${GDPR}processCookieCategory`, [
            ['gdpr_cookie_category', '4'],
            ['gdpr_cookie_category_state', '0'],
          ]),
        ]).then((answers) => expect(answers.map((a) => a.status)).toEqual([200, 200, 200])),
      ),
    );
    // each session's newest record holds the state after all three
    const newest = await h!.query(
      `SELECT s1, s2, s3, s4 FROM cookie_consents c WHERE NOT EXISTS (SELECT 1 FROM cookie_consents n
         WHERE n.session_id = c.session_id AND (n.at > c.at OR (n.at = c.at AND n.id > c.id)))`,
    );
    expect(newest).toEqual(Array.from({ length: 12 }, () => ({ s1: 1, s2: 1, s3: 1, s4: 1 })));
  });

  it("a burst of clicks with distinct selectors stores at most the session's share of selectors", async () => {
    await start();
    const v = visitorWithSession();
    await v.beat(PAGE, true);
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        v.post(STREAM, [
          ['task', 'stream.saveEntity'],
          ['resource', 'heatmapclick'],
          ['nowpage', PAGE],
          ['clicked_element', `div.junk${i}`],
        ]),
      ),
    );
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(await h!.query('SELECT COUNT(DISTINCT selector) AS n FROM clicks')).toEqual([{ n: MAX_SELECTORS_PER_SESSION }]);
  });

  it("three tabs' first beats at once are one visit of three page views", async () => {
    await start();
    const visitors = Array.from({ length: 12 }, visitorWithSession);
    await Promise.all(visitors.flatMap((v) => [1, 2, 3].map((tab) => v.beat(`${PAGE}?tab=${tab}`, true))));
    expect(await h!.query('SELECT COUNT(*) AS visits, SUM(views) AS views FROM visits')).toEqual([{ visits: 12, views: 36 }]);
    expect(await h!.query('SELECT COUNT(*) AS n FROM page_views')).toEqual([{ n: 36 }]);
  });
});
