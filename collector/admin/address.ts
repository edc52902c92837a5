import { FILTERS, type FilterName, type Filters } from '../shared/admin-api';
import { PERIOD_NAMES, type PeriodChoice } from './period';

/**
 * What the address keeps of a view, so that it can be bookmarked and reloaded: the period
 * (`period`, and `from`/`to` for a custom range) and the filters (`filter=<name>:<value>`,
 * repeatable, as the API reads them) in the query string; the open view in the hash (App.tsx).
 */
export interface AddressState {
  period: PeriodChoice | null;
  filters: Filters;
}

/** The filters as the API's `filter` fields. */
export const filterFields = (filters: Filters): string[] => filters.map((f) => `${f.name}:${f.value}`);

/** The period and filters the address names (an unknown filter or period is left out). */
export function readAddress(search = window.location.search): AddressState {
  const params = new URLSearchParams(search);
  const name = params.get('period');
  let period: PeriodChoice | null = null;
  if (name && (PERIOD_NAMES as readonly string[]).includes(name)) {
    const from = params.get('from') ?? '';
    const to = params.get('to') ?? '';
    period =
      name === 'custom' ? (from && to ? { name, from, to } : null) : { name: name as PeriodChoice['name'], from: '', to: '' };
  }
  const filters: Filters = [];
  for (const text of params.getAll('filter')) {
    const colon = text.indexOf(':');
    const filterName = text.slice(0, colon);
    const value = text.slice(colon + 1);
    if (colon > 0 && value && Object.hasOwn(FILTERS, filterName)) filters.push({ name: filterName as FilterName, value });
  }
  return { period, filters };
}

/** The query string of a state (the period's fields, then the filters). */
export function searchOf(period: PeriodChoice, filters: Filters): string {
  const params = new URLSearchParams({ period: period.name });
  if (period.name === 'custom') {
    params.set('from', period.from);
    params.set('to', period.to);
  }
  for (const field of filterFields(filters)) params.append('filter', field);
  return `?${params.toString()}`;
}

/** Put the state into the address: a new history entry (Back undoes a filter), the hash kept. */
export function writeAddress(period: PeriodChoice, filters: Filters): void {
  const search = searchOf(period, filters);
  if (search !== window.location.search)
    window.history.pushState(null, '', `${window.location.pathname}${search}${window.location.hash}`);
}
