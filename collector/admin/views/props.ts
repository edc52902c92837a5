import type { Filters } from '../api';
import type { Lang, Messages } from '../i18n';
import type { PeriodChoice } from '../period';

/** What every view of a period gets: the texts, the language and the chosen period. */
export interface PeriodViewProps {
  t: Messages;
  lang: Lang;
  period: PeriodChoice;
}

/** A view the overview's filters apply to: the filters, and how a chip changes them. */
export interface FilteredViewProps extends PeriodViewProps {
  filters: Filters;
  onFilters: (filters: Filters) => void;
}

/** A view the filters do not apply to: whether any are set (it says so). */
export interface UnfilteredViewProps extends PeriodViewProps {
  filtered?: boolean;
}
