import { useEffect, useRef } from 'react';
import { FILTERS } from '../../shared/admin-api';
import { filterFields } from '../address';
import { getJson, type Compared, type FilterName, type Filters, type Online, type Row, type Traffic } from '../api';
import { BarChart } from '../components/BarChart';
import { Breakdown } from '../components/Breakdown';
import { Change } from '../components/Change';
import { PeriodNote } from '../components/PeriodPicker';
import { Status } from '../components/Status';
import { Table } from '../components/Table';
import { bucketLabel, duration, percent } from '../format';
import type { Lang, Messages } from '../i18n';
import { periodParams } from '../period';
import { useData } from '../useData';
import type { FilteredViewProps } from './props';

/** How often "online now" refreshes: a little slower than the default 2 s heartbeat. */
const ONLINE_REFRESH_MS = 5000;
/** The campaign parameters, in the order a campaign link names them. */
const UTM = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const;
/** Window width classes from narrow to wide (the collector's SCREEN_CLASSES), unknown last: read as a scale. */
const SCREEN_ORDER = ['< 600', '600–1023', '1024–1439', '≥ 1440', 'unknown'];
const bySize = (rows: readonly Row[]) => [...rows].sort((a, b) => SCREEN_ORDER.indexOf(a.label) - SCREEN_ORDER.indexOf(b.label));
/** Each breakdown's filter (the shared table read the other way round). */
const FILTER_OF = Object.fromEntries(Object.entries(FILTERS).map(([name, key]) => [key, name as FilterName])) as Record<
  string,
  FilterName
>;
/** The filters that name a page address. */
const PAGE_FILTERS: readonly FilterName[] = ['page', 'entry', 'exit'];

/**
 * A page address as its path (and query): the rows are the site's pages, the whole address wraps
 * over lines. `withHost` where the rows are of more than one site.
 */
export function pathOf(address: string, withHost = false): string {
  try {
    const url = new URL(address);
    return `${withHost ? url.host : ''}${url.pathname}${url.search}`;
  } catch {
    return address;
  }
}

/** Region names per language, made once (every country row and chip asks). */
const regionNames = new Map<Lang, Intl.DisplayNames>();

/** A country's name in `lang` from its ISO code (the code itself where the runtime knows none). */
function countryName(t: Messages, lang: Lang, code: string): string {
  if (code === 'unknown') return t.unknown;
  try {
    let names = regionNames.get(lang);
    if (!names) {
      names = new Intl.DisplayNames(lang, { type: 'region', fallback: 'code' });
      regionNames.set(lang, names);
    }
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

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

/**
 * Visitors online now (refreshing), then the chosen period beside the previous one: key figures,
 * page views over time (chart, and its values as a collapsed table), pages with time on page,
 * entry and exit pages, sources (by name, and the referring pages), campaigns, devices, browsers,
 * operating systems, countries and window widths.
 */
export function Overview({ t, lang, period, filters, onFilters }: FilteredViewProps) {
  const [online] = useData(() => getJson<Online>('online'), [], ONLINE_REFRESH_MS);
  const fields = filterFields(filters);
  const [traffic, , trafficBusy] = useData(
    () => getJson<Traffic>('traffic', { ...periodParams(period), filter: fields }),
    [period, fields.join('\n')],
  );
  /** A click on a row: filter by it (replacing a filter of the same dimension). */
  const pick = (name: FilterName) => (row: Row) =>
    onFilters([...filters.filter((f) => f.name !== name), { name, value: row.label }]);
  const number = new Intl.NumberFormat(lang);
  const count = (n: number) => number.format(n);
  // not bound to the period: between the period's key figures and its details
  const onlineCard = (
    <section aria-labelledby="online-title" className="card">
      <h2 id="online-title">{t.onlineNow}</h2>
      <Status loaded={online} t={t}>
        {(data) => (
          <>
            <p className="big" data-testid="online-count">
              {number.format(data.online)} <span>{t.visitors}</span>
            </p>
            <p className="hint">{t.onlineHint}</p>
            {data.pages.length > 0 && (
              <Table
                columns={[
                  { label: t.page, className: 'url' },
                  { label: t.visitors, num: true },
                ]}
                items={data.pages}
                rowKey={(p) => p.page}
                cells={(p) => [
                  <span key="page" title={p.page}>
                    {pathOf(p.page)}
                  </span>,
                  number.format(p.visitors),
                ]}
              />
            )}
          </>
        )}
      </Status>
    </section>
  );
  return (
    <>
      <Status loaded={traffic} t={t} busy={trafficBusy} testId="overview-data">
        {(data) => {
          const before = data.summary.visits.previous === 0;
          const figures: Array<[string, Compared, (n: number) => string, boolean?]> = [
            [t.pageViews, data.summary.views, count],
            [t.visitors, data.summary.visitors, count],
            [t.visits, data.summary.visits, count],
            [t.bounceRate, data.summary.bounceRate, (n) => percent(n, lang), true],
            [t.timeOnPage, data.summary.timeOnPage, (n) => duration(n, lang)],
          ];
          // pages of more than one site: the host stays in the label
          const hosts = new Set(data.pages.map((p) => pathOf(p.label, true).split('/')[0]));
          const pageLabel = (row: Row) => pathOf(row.label, hosts.size > 1);
          const pageTitle = (row: Row) => row.label;
          // a browser's or system's name as given, `unknown` in the admin's language
          const named = (row: Row) => (row.label === 'unknown' ? t.unknown : row.label);
          const chartTitle = t.viewsPer[data.period.unit]!;
          const short = (label: string) => bucketLabel(label, lang, true);
          const campaigns = UTM.filter((key) => data[key].length > 0);
          // each card's tables as CSV, with the view's period and filters (the collector's /admin/traffic.csv)
          const csvHref = (table: string) =>
            `/admin/traffic.csv?${new URLSearchParams([
              ...Object.entries(periodParams(period)),
              ...fields.map((f) => ['filter', f]),
              ['table', table],
            ]).toString()}`;
          const CARD_TABLES: Record<string, string[]> = {
            'pages-title': ['pages'],
            'entry-title': ['entryPages'],
            'exit-title': ['exitPages'],
            'sources-title': ['sources', 'referrers'],
            'campaigns-title': [...campaigns],
            'devices-title': ['devices'],
            'browsers-title': ['browsers'],
            'systems-title': ['operatingSystems'],
            'countries-title': ['countries'],
            'screens-title': ['screens'],
          };
          const csvLinks = (title: string, tables: readonly string[]) =>
            tables.length > 0 && (
              <span className="csv-links">
                {tables.map((table) => {
                  const name = t.filterNames[FILTER_OF[table] ?? ''] ?? table;
                  const what = tables.length > 1 ? `${title}: ${t.utm[table] ?? name}` : title;
                  // the visible text first in the link's name, the card's title for a screen reader after it
                  return (
                    <a key={table} href={csvHref(table)} download data-testid={`csv-${table}`}>
                      {tables.length > 1 ? `${t.csv} ${name}` : t.csv}
                      <span className="sr-only"> ({what})</span>
                    </a>
                  );
                })}
              </span>
            );
          const card = (id: string, title: string, body: React.ReactNode, hint?: string) => (
            <section aria-labelledby={id} className="card">
              <div className="card-head">
                <h2 id={id}>{title}</h2>
                {csvLinks(title, CARD_TABLES[id] ?? [])}
              </div>
              {hint && <p className="hint">{hint}</p>}
              {body}
            </section>
          );
          // one breakdown of this period's rows, counted as `countHeader`, with the view's language
          const breakdown = (
            testId: string,
            rows: Row[],
            labelHeader: string,
            countHeader: string,
            more: Pick<React.ComponentProps<typeof Breakdown>, 'labelOf' | 'share' | 'extra' | 'titleOf'> = {},
            key: string = testId,
          ) => (
            <Breakdown
              key={testId}
              t={t}
              lang={lang}
              rows={rows}
              labelHeader={labelHeader}
              countHeader={countHeader}
              format={count}
              testId={testId}
              onPick={FILTER_OF[key] ? pick(FILTER_OF[key]) : undefined}
              {...more}
            />
          );
          return (
            <>
              <PeriodNote t={t} lang={lang} period={data.period} />
              <FilterChips t={t} lang={lang} filters={filters} onChange={onFilters} />
              <section aria-labelledby="figures-title" className="card">
                <div className="card-head">
                  <h2 id="figures-title">{t.keyFigures}</h2>
                  {csvLinks(t.keyFigures, ['summary'])}
                </div>
                <dl className="figures" data-testid="figures">
                  {figures.map(([label, value, format, rate = false]) => (
                    <div key={label}>
                      <dt>{label}</dt>
                      <dd>
                        <span className="value">{format(value.current)}</span>
                        <span className="line">
                          <Change
                            t={t}
                            lang={lang}
                            current={value.current}
                            previous={value.previous}
                            points={rate}
                            wasNone={rate ? before : value.previous === 0}
                            lowerIsBetter={rate}
                          />
                          <span className="prev">
                            {t.previous} {format(value.previous)}
                          </span>
                        </span>
                      </dd>
                    </div>
                  ))}
                </dl>
                <p className="hint">{t.figuresHint}</p>
              </section>
              {onlineCard}
              <section aria-labelledby="views-title" className="card">
                <div className="card-head">
                  <h2 id="views-title">{chartTitle}</h2>
                  {csvLinks(chartTitle, ['series'])}
                </div>
                <BarChart
                  values={data.series.map((d) => d.views)}
                  labels={data.series.map((d) => d.label)}
                  long={(label) => bucketLabel(label, lang)}
                  short={short}
                  format={count}
                  caption={chartTitle}
                  previous={data.series.map((d) => d.previousViews)}
                  legend={t.chartLegend}
                />
                <details>
                  <summary>{t.chartTable}</summary>
                  <Table
                    testId="series-table"
                    stack
                    columns={[
                      { label: t.bucket[data.period.unit]! },
                      { label: t.pageViews, num: true },
                      { label: t.visitors, num: true },
                      { label: t.previousPeriod },
                      { label: `${t.pageViews} (${t.previous})`, num: true },
                    ]}
                    items={data.series}
                    rowKey={(d) => `${d.label}-${d.previousLabel}`}
                    cells={(d) => [
                      bucketLabel(d.label, lang),
                      count(d.views),
                      count(d.visitors),
                      d.previousLabel === null ? '' : bucketLabel(d.previousLabel, lang),
                      count(d.previousViews),
                    ]}
                  />
                </details>
              </section>
              <div className="grid">
                {card(
                  'pages-title',
                  t.topPages,
                  breakdown(
                    'top-pages',
                    data.pages,
                    t.page,
                    t.pageViews,
                    {
                      labelOf: pageLabel,
                      titleOf: pageTitle,
                      extra: {
                        header: t.timeOnPage,
                        cell: (row) => duration(data.pages.find((p) => p.label === row.label)!.timeOnPage, lang),
                      },
                    },
                    'pages',
                  ),
                  t.filterHint,
                )}
                {card(
                  'entry-title',
                  t.entryPages,
                  breakdown(
                    'entry-pages',
                    data.entryPages,
                    t.page,
                    t.entries,
                    { labelOf: pageLabel, titleOf: pageTitle },
                    'entryPages',
                  ),
                )}
                {card(
                  'exit-title',
                  t.exitPages,
                  breakdown(
                    'exit-pages',
                    data.exitPages,
                    t.page,
                    t.exits,
                    { labelOf: pageLabel, titleOf: pageTitle },
                    'exitPages',
                  ),
                )}
                {card(
                  'sources-title',
                  t.sources,
                  data.sources.length === 0 ? (
                    <p>{t.none}</p>
                  ) : (
                    <>
                      {breakdown('sources', data.sources, t.source, t.visits, { share: true })}
                      {breakdown('referrers', data.referrers, t.referrer, t.visits)}
                    </>
                  ),
                  t.sourcesHint,
                )}
                {card(
                  'campaigns-title',
                  t.campaigns,
                  campaigns.length === 0 ? (
                    <p>{t.none}</p>
                  ) : (
                    campaigns.map((key) => breakdown(key, data[key], t.utm[key]!, t.visits))
                  ),
                  t.campaignsHint,
                )}
                {card(
                  'devices-title',
                  t.devices,
                  breakdown(
                    'devices',
                    data.devices,
                    t.device,
                    t.visits,
                    { labelOf: (row) => t.deviceNames[row.label] ?? row.label, share: true },
                    'devices',
                  ),
                )}
                {card(
                  'browsers-title',
                  t.browsers,
                  breakdown('browsers', data.browsers, t.browser, t.visits, { labelOf: named, share: true }, 'browsers'),
                )}
                {card(
                  'systems-title',
                  t.operatingSystems,
                  breakdown(
                    'operating-systems',
                    data.operatingSystems,
                    t.os,
                    t.visits,
                    { labelOf: named, share: true },
                    'operatingSystems',
                  ),
                )}
                {card(
                  'countries-title',
                  t.countries,
                  <>
                    {breakdown('countries', data.countries, t.country, t.visits, {
                      labelOf: (row) => countryName(t, lang, row.label),
                      share: true,
                    })}
                    {/* DB-IP's licence (CC BY 4.0) asks for this link where its results are shown */}
                    <p className="hint">
                      {t.countriesSource} <a href="https://db-ip.com">IP Geolocation by DB-IP</a>
                    </p>
                  </>,
                  t.countriesHint,
                )}
                {card(
                  'screens-title',
                  t.screens,
                  breakdown(
                    'screens',
                    bySize(data.screens),
                    t.screen,
                    t.visits,
                    { labelOf: (row) => (row.label === 'unknown' ? t.unknown : `${row.label} px`), share: true },
                    'screens',
                  ),
                )}
              </div>
            </>
          );
        }}
      </Status>
      {/* while the period loads (or if it fails), who is online now still shows */}
      {traffic.state !== 'ok' && onlineCard}
    </>
  );
}
