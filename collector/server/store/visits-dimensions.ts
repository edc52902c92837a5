/**
 * What the visits area's figures are grouped and filtered by: the dimensions of a visit (their SQL on
 * `visits v`) and the filters. Shared by the totals counted from the rows (visits-count-statement.ts)
 * and the filtered month totals (visits-filtered.ts).
 */

/** Screen size classes by the window's outer width (device_width), in CSS px; the last has no upper end. */
export const SCREEN_CLASSES = [
  { label: '< 600', below: 600 },
  { label: '600–1023', below: 1024 },
  { label: '1024–1439', below: 1440 },
  { label: '≥ 1440', below: null },
] as const;
const SCREEN = `CASE WHEN v.screen_width IS NULL THEN 'unknown' ${SCREEN_CLASSES.map((c) => (c.below === null ? `ELSE '${c.label}'` : `WHEN v.screen_width < ${c.below} THEN '${c.label}'`)).join(' ')} END`;

/** What the dashboard groups visits by: metric name and the `visits` column (or expression) of its label. */
export const VISIT_DIMENSIONS = {
  entry: 'v.entry_page',
  exit: 'v.exit_page',
  // referring pages: host and path (`www.google.com/`); visits stored before paths were kept, the host alone
  referrer: "v.referrer || COALESCE(v.referrer_path, '')",
  source: 'v.source',
  utm_source: 'v.utm_source',
  utm_medium: 'v.utm_medium',
  utm_campaign: 'v.utm_campaign',
  utm_term: 'v.utm_term',
  utm_content: 'v.utm_content',
  device: "COALESCE(v.device, 'unknown')",
  browser: "COALESCE(v.browser, 'unknown')",
  os: "COALESCE(v.os, 'unknown')",
  country: "COALESCE(v.country, 'unknown')",
  screen: SCREEN,
} as const;
export type VisitDimension = keyof typeof VISIT_DIMENSIONS;

/**
 * What a read can be filtered by: `page` (the page views of that page, and the visits with a page
 * view of it) and each visit dimension (the visits with that label, and their page views). One
 * entry per dimension: a new column of VISIT_DIMENSIONS is a filter too.
 */
export type FilterDimension = 'page' | VisitDimension;
/** Filters, all of which a row must match (values are bound parameters, never SQL text). */
export type VisitFilter = ReadonlyArray<readonly [FilterDimension, string]>;
