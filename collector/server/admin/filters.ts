import { FILTERS, type FilterName, type Filters } from '../../shared/admin-api';
import { HttpError } from '../edge/http';
import type { VisitFilter } from '../store';

/** The filters of the API's reads (`filter=<name>:<value>`, api.ts) and the store's filter of them. */

/** At most this many filters per read, each value at most this long (a stored page address is at most 2,048). */
const MAX_FILTERS = 10;
const MAX_FILTER_VALUE = 2048;

/**
 * The filters of a read: `filter=<name>:<value>`, repeatable (all must match); the value is what
 * a breakdown's row shows (its label). Throws 400 for an unknown name or an empty value.
 */
export function filtersOf(params: URLSearchParams, headers?: Record<string, string>): Filters {
  const given = params.getAll('filter');
  if (given.length > MAX_FILTERS) throw new HttpError(400, `at most ${MAX_FILTERS} filters`, headers, 'filter_count');
  const filters: Filters = [];
  for (const text of given) {
    const colon = text.indexOf(':');
    const name = text.slice(0, colon);
    const value = text.slice(colon + 1);
    if (colon < 1 || !Object.hasOwn(FILTERS, name))
      throw new HttpError(
        400,
        `filter must be <name>:<value>, name one of ${Object.keys(FILTERS).join(', ')}`,
        headers,
        'filter_format',
      );
    if (value === '' || value.length > MAX_FILTER_VALUE)
      throw new HttpError(400, `a filter's value must be 1 to ${MAX_FILTER_VALUE} characters`, headers, 'filter_value');
    if (!filters.some((f) => f.name === name && f.value === value)) filters.push({ name: name as FilterName, value });
  }
  return filters;
}

/** The store's filter of the API's. */
export const storeFilter = (filters: Filters): VisitFilter => filters.map((f) => [f.name, f.value] as const);
