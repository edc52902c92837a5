import { collapseStep, unlabel, type Step } from './retention';
import type { Sql } from './sql';
import { VISIT_DIMENSIONS } from './visits-dimensions';

/**
 * The visits area's day totals' labels that come from addresses (visits.ts): summed under no label
 * past the page views' retention, and made unlabelled where an erased session's addresses gave them.
 */

/**
 * The day totals' metrics whose labels come from addresses: a page's query (a search, a name, a
 * token), a referring path, campaign values. The other labels (country, browser, device, source,
 * screen, hour) name no one.
 */
const ADDRESS_METRICS = [
  'page',
  'entry',
  'exit',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];

/**
 * Retention of the day totals: past the page views' retention, the labels of ADDRESS_METRICS are
 * summed per day and metric under the label '' (no page, referrer or campaign has it), so a period
 * a year back still has its page views, time on page and visits, and no address.
 */
export function labelsGone(before: number): Step {
  const metrics = ADDRESS_METRICS.map((m) => `'${m}'`).join(', ');
  return collapseStep('totalLabels', 'stats_visits', `metric IN (${metrics}) AND label <> ''`, before, unlabelled);
}

/** The rows of stats_visits that `where` names summed per day and metric into its row without a label, then deleted. */
function unlabelled(where: string): [string, string] {
  return [
    `INSERT INTO stats_visits (day, metric, label, n, total)
     SELECT day, metric, '', SUM(n), SUM(total) FROM stats_visits WHERE ${where} GROUP BY day, metric
     ON CONFLICT (day, metric, label) DO UPDATE SET n = stats_visits.n + excluded.n, total = stats_visits.total + excluded.total`,
    `DELETE FROM stats_visits WHERE ${where}`,
  ];
}

/**
 * Erasure (inside its transaction): the day totals' labels that one of the session's addresses
 * gave, every day's, made unlabelled as the retention does (the counts stay, they count no one):
 * its pages with a query (as page, entry and exit: a query can name someone; a page without one is
 * a page of the site) and its referring pages with a path (`mail.example.net/inbox/anna`; a host
 * alone names no one). Another visitor's counts under the same label lose it too. Campaign values
 * stay: the site's own links set them, shared by everyone who followed one.
 */
export async function forgetAddressLabels(tx: Sql, session: string): Promise<void> {
  const pages = await tx.all<{ label: string }>(
    'SELECT DISTINCT page AS label FROM page_views WHERE session_id = ? AND page LIKE ?',
    [session, '%?%'],
  );
  const referrers = await tx.all<{ label: string }>(
    `SELECT DISTINCT ${VISIT_DIMENSIONS.referrer} AS label FROM visits v
     WHERE v.session_id = ? AND v.referrer IS NOT NULL AND v.referrer_path IS NOT NULL AND v.referrer_path NOT IN ('', '/')`,
    [session],
  );
  for (const [metrics, labels] of [
    ["'page', 'entry', 'exit'", pages],
    ["'referrer'", referrers],
  ] as const)
    await unlabel(
      tx,
      unlabelled,
      (list) => `metric IN (${metrics}) AND label IN (${list})`,
      labels.map((r) => r.label),
    );
}
