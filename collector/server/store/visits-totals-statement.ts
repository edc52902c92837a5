import type { EngineName } from './visits-count';
import type { Wanted } from './visits-top';

/**
 * The statement of a visits totals read (visits-totals-read.ts runs it): its sources' rows added up
 * per metric and label, and ranked, by the database.
 */

/** The sources of a totals read: days counted from the rows, day (and month) totals, filtered month totals. */
export interface Sources {
  count: {
    head: string;
    body: string;
    headParams: readonly unknown[];
    bodyParams: readonly unknown[];
    filtered: boolean;
  } | null;
  covered: { sql: string; params: readonly string[] } | null;
  monthly: { filter: readonly [string, string]; months: readonly string[] } | null;
}

/**
 * The statement of a totals read (readTotals) on `sources`: their rows added up per metric and
 * label by the database, and only what is asked for answered. `top`: each metric's `limit` first
 * labels (most first, ties in code-point order: PostgreSQL's text order is its collation's, so
 * "C", which compares bytes as SQLite does), and with `counts` how many labels each metric has;
 * `labels`: the sums of those labels. Always the summary (`sum`, over every label, the unlabelled
 * rows of retention's collapse too, which no list shows) and, counted filtered, the chart's figures
 * of each day (`chart`).
 */
export function totalsStatement(sources: Sources, wanted: Wanted, limit: number, counts: boolean, engine: EngineName) {
  const { count, covered, monthly } = sources;
  const labelled = 'labels' in wanted;
  const params: unknown[] = [];
  const entries: string[] = [];
  if (count) {
    params.push(...count.headParams, ...count.bodyParams);
    // read more than once (the chart's figures, or the labels and the summary): counted once
    entries.push(`c AS ${count.filtered || labelled ? 'MATERIALIZED ' : ''}(${count.body})`);
  }
  const pairs = labelled ? [...wanted.labels].flatMap(([metric, labels]) => labels.map((label) => [metric, label])) : [];
  if (pairs.length > 0) {
    entries.push(`w (metric, label) AS (VALUES ${pairs.map(() => '(CAST(? AS TEXT), CAST(? AS TEXT))').join(', ')})`);
    params.push(...pairs.flat());
  }
  const list = (monthly?.months ?? []).map(() => '?').join(', ');
  /** The sources' rows that `where` keeps (a condition on `metric` and `label`). */
  const arms = (where: string) => {
    const text: string[] = [];
    if (count) text.push(`SELECT metric, label, n, total FROM c WHERE metric <> 'views'${where}`);
    if (covered) {
      text.push(`SELECT metric, label, n, total FROM stats_visits WHERE ${covered.sql} AND metric <> 'hour'${where}`);
      params.push(...covered.params);
    }
    if (monthly) {
      text.push(`SELECT s.metric AS metric, s.label AS label, s.n AS n, s.total AS total
         FROM stats_visits_by_built b JOIN stats_visits_by s ON s.start_at = b.start_at AND s.dimension = ? AND s.value = ?
         WHERE b.month IN (${list})${where}`);
      params.push(...monthly.filter, ...monthly.months);
    }
    return text.join(' UNION ALL ');
  };
  const byLabel = engine === 'postgres' ? 'label COLLATE "C"' : 'label';
  // every select names its columns: the first of a compound names them, and any may be first
  const sums = `COALESCE(SUM(CASE WHEN metric = 'page' THEN n ELSE 0 END), 0) AS n,
       COALESCE(SUM(CASE WHEN metric = 'page' THEN total ELSE 0 END), 0) AS total,
       COALESCE(SUM(CASE WHEN metric = 'visitors' THEN n ELSE 0 END), 0) AS visitors,
       COALESCE(SUM(CASE WHEN metric = 'visits' THEN n ELSE 0 END), 0) AS visits,
       COALESCE(SUM(CASE WHEN metric = 'visits' THEN total ELSE 0 END), 0) AS bounces`;
  const zeros = '0 AS total, 0 AS visitors, 0 AS visits, 0 AS bounces, 0 AS marked';
  const selects: string[] = [];
  if (!labelled) {
    entries.push(`src (metric, label, n, total) AS (${arms('')})`);
    entries.push('g AS (SELECT metric, label, SUM(n) AS n, SUM(total) AS total FROM src GROUP BY metric, label)');
    selects.push(
      `SELECT 'top' AS kind, k AS i, metric, label, n, total, 0 AS visitors, 0 AS visits, 0 AS bounces, 0 AS marked FROM (
         SELECT metric, label, n, total, ROW_NUMBER() OVER (PARTITION BY metric ORDER BY n DESC, ${byLabel}) AS k
         FROM g WHERE label <> ''
       ) r WHERE k <= ${limit}`,
    );
    if (counts)
      selects.push(
        `SELECT 'count' AS kind, 0 AS i, metric, '' AS label, COUNT(*) AS n, ${zeros} FROM g WHERE label <> '' GROUP BY metric`,
      );
  } else {
    if (pairs.length > 0)
      entries.push(`src (metric, label, n, total) AS (${arms(' AND (metric, label) IN (SELECT metric, label FROM w)')})`);
    entries.push(`g AS (${arms(" AND metric IN ('page', 'visitors', 'visits')")})`);
    if (pairs.length > 0)
      selects.push(
        `SELECT 'top' AS kind, 0 AS i, metric, label, SUM(n) AS n, SUM(total) AS total, 0 AS visitors, 0 AS visits, 0 AS bounces,
           0 AS marked
         FROM src GROUP BY metric, label`,
      );
  }
  // the summary; with filtered month totals, how many of their months are still marked (readTotals)
  selects.push(
    `SELECT 'sum' AS kind, 0 AS i, '' AS metric, '' AS label, ${sums},
       ${monthly ? `(SELECT COUNT(*) FROM stats_visits_by_built WHERE month IN (${list}))` : '0'} AS marked FROM g`,
  );
  if (monthly) params.push(...monthly.months);
  if (count?.filtered)
    selects.push(`SELECT 'chart' AS kind, i, metric, '' AS label, n, ${zeros} FROM c WHERE metric IN ('views', 'visitors')`);
  const head = count ? `${count.head}, ` : 'WITH ';
  return { text: `${head}${entries.join(',\n       ')}\n       ${selects.join('\n       UNION ALL ')}`, params };
}
