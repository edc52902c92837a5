import type { PeriodName } from './api';

/** The period picker's state: a choice, and the days of a custom range (`YYYY-MM-DD`, site time zone). */
export interface PeriodChoice {
  name: PeriodName;
  from: string;
  to: string;
}

/** The picker's choices, in menu order. */
export const PERIOD_NAMES: readonly PeriodName[] = ['today', '7d', '30d', '12m', 'custom'];
/** What the admin sees first: the month behind, as before the picker. */
export const DEFAULT_PERIOD: PeriodChoice = { name: '30d', from: '', to: '' };

const KEY = 'pagepulse-admin-period';

/** The query fields of a choice, for /admin/api reads and the CSV export. */
export function periodParams(choice: PeriodChoice): Record<string, string> {
  return choice.name === 'custom' ? { period: 'custom', from: choice.from, to: choice.to } : { period: choice.name };
}

/** The choice made before (this browser), else the default. */
export function storedPeriod(): PeriodChoice {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<PeriodChoice> | null;
    if (stored && PERIOD_NAMES.includes(stored.name as PeriodName) && stored.name !== 'custom')
      return { ...DEFAULT_PERIOD, name: stored.name as PeriodName };
  } catch {
    // private mode or a broken value: the default
  }
  return DEFAULT_PERIOD;
}

/** Remember a choice (not a custom range: its days would be stale next time). */
export function storePeriod(choice: PeriodChoice): void {
  try {
    localStorage.setItem(KEY, JSON.stringify({ name: choice.name }));
  } catch {
    // private mode: the choice lasts for this page only
  }
}
