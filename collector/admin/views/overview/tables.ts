import { FILTERS } from '../../../shared/admin-api';
import type { FilterName } from '../../api';
import { periodParams, type PeriodChoice } from '../../period';

/** Each breakdown's filter (the shared table read the other way round). */
export const FILTER_OF = Object.fromEntries(Object.entries(FILTERS).map(([name, key]) => [key, name as FilterName])) as Record<
  string,
  FilterName
>;

/** A table of the overview as CSV, with the view's period and filters (the collector's /admin/traffic.csv). */
export const trafficCsv =
  (period: PeriodChoice, fields: readonly string[]) =>
  (table: string): string =>
    `/admin/traffic.csv?${new URLSearchParams([
      ...Object.entries(periodParams(period)),
      ...fields.map((f) => ['filter', f]),
      ['table', table],
    ]).toString()}`;
