import { useEffect, useRef } from 'react';
import type { FilterName, Filters } from '../api';
import { countryName, pathOf } from '../format';
import type { Lang, Messages } from '../i18n';

/** The filters that name a page address. */
const PAGE_FILTERS: readonly FilterName[] = ['page', 'entry', 'exit'];

/** How a filter's value reads (a chip): a page as its path, a device class in words, a country by name. */
function shownValue(t: Messages, lang: Lang, name: FilterName, value: string): string {
  if (PAGE_FILTERS.includes(name)) return pathOf(value);
  if (name === 'device') return t.deviceNames[value] ?? value;
  if (name === 'country') return countryName(t, lang, value);
  if (value === 'unknown') return t.unknown;
  return name === 'screen' ? `${value} px` : value;
}

/** The active filters, each a chip that removes it; and one to remove them all. */
export function FilterChips({
  t,
  lang,
  filters,
  onChange,
}: {
  t: Messages;
  lang: Lang;
  filters: Filters;
  onChange: (filters: Filters) => void;
}) {
  const group = useRef<HTMLDivElement>(null);
  /** After a removal: the index of the button that takes focus (a removed chip would leave it on <body>). */
  const focusAt = useRef<number | null>(null);
  useEffect(() => {
    const at = focusAt.current;
    if (at === null) return;
    focusAt.current = null;
    // the next chip, else "remove all", else the chip before; none left: the content
    const buttons = [...(group.current?.querySelectorAll('button') ?? [])];
    (buttons[at] ?? buttons.at(-1) ?? document.getElementById('main'))?.focus();
  }, [filters]);
  const remove = (next: Filters, at: number) => {
    focusAt.current = at;
    onChange(next);
  };
  if (filters.length === 0) return null;
  return (
    <div className="chips" role="group" aria-label={t.filtersLabel} data-testid="filter-chips" ref={group}>
      {filters.map((f, i) => {
        const what = `${t.filterNames[f.name] ?? f.name}: ${shownValue(t, lang, f.name, f.value)}`;
        return (
          <button
            key={`${f.name}:${f.value}`}
            type="button"
            className="chip"
            title={PAGE_FILTERS.includes(f.name) ? f.value : undefined}
            aria-label={t.removeFilter(what)}
            onClick={() =>
              remove(
                filters.filter((_, j) => j !== i),
                i,
              )
            }
          >
            <span>{what}</span>
            <span aria-hidden="true">✕</span>
          </button>
        );
      })}
      {filters.length > 1 && (
        <button type="button" className="link" onClick={() => remove([], 0)}>
          {t.clearFilters}
        </button>
      )}
    </div>
  );
}
