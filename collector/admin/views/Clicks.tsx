import { filterFields } from '../address';
import { getJson, type ClickPages } from '../api';
import { FilterChips } from '../components/FilterChips';
import { PeriodNote } from '../components/PeriodPicker';
import { Status } from '../components/Status';
import { Table } from '../components/Table';
import type { Lang } from '../i18n';
import { periodParams } from '../period';
import { lastStep } from '../selector';
import { useData } from '../useData';
import type { FilteredViewProps } from './props';

/**
 * The overlay's link in the admin's language: the server's `#pagepulse-heatmap` with `=de` or `=en`
 * (docs/collector.md), which the overlay's panel then speaks.
 */
function withLang(href: string, lang: Lang): string {
  return href.endsWith('#pagepulse-heatmap') ? `${href}=${lang}` : href;
}

/**
 * The most clicked selectors per page in the period, each with its count in the previous period,
 * and a link that opens the page with the heatmap, which shows each element with its text; with the
 * overview's filters (a page's clicks, the clicks of the matching visits).
 */
export function Clicks({ t, lang, period, filters, onFilters }: FilteredViewProps) {
  const fields = filterFields(filters);
  const [loaded, , busy] = useData(
    () => getJson<ClickPages>('clicks', { ...periodParams(period), filter: fields }),
    [period, fields.join('\n')],
  );
  const number = new Intl.NumberFormat(lang);
  return (
    <Status loaded={loaded} t={t} busy={busy} testId="clicks-data">
      {(data) => (
        <>
          <PeriodNote t={t} lang={lang} period={data.period} />
          <FilterChips t={t} lang={lang} filters={filters} onChange={onFilters} />
          {filters.length > 0 && <p className="hint">{t.clicksFiltered}</p>}
          <p className="hint">{t.clicksHint}</p>
          {data.pages.length === 0 && <p>{t.none}</p>}
          {data.pages.map((p, i) => {
            // the server names the link only for a page of the site (a stored address is a visitor's word)
            const link = p.href && withLang(p.href, lang);
            return (
              <section key={p.page} className="card" aria-labelledby={`clicks-${i}`}>
                <h2 id={`clicks-${i}`} className="url">
                  {p.page}
                </h2>
                <p className="hint">
                  {t.clicks}: {number.format(p.total.current)} ({t.previous} {number.format(p.total.previous)})
                </p>
                {link && (
                  <p>
                    <a href={link} target="_blank" rel="noopener noreferrer" data-testid="heatmap-link">
                      {t.openHeatmap}
                    </a>
                  </p>
                )}
                <Table
                  columns={[{ label: t.element }, { label: t.clicks, num: true }, { label: t.previous, num: true }]}
                  items={p.selectors}
                  rowKey={(s) => s.selector}
                  cells={(s) => {
                    // the last step first, the whole selector under it (and as its title)
                    const step = lastStep(s.selector);
                    return [
                      <span className="selector">
                        <strong title={s.selector}>{step}</strong>
                        {s.selector !== step && <code>{s.selector}</code>}
                      </span>,
                      number.format(s.current),
                      number.format(s.previous),
                    ];
                  }}
                />
              </section>
            );
          })}
        </>
      )}
    </Status>
  );
}
