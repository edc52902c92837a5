import { getJson, type Compared, type Online, type Row, type Traffic } from '../api';
import { BarChart } from '../components/BarChart';
import { Breakdown } from '../components/Breakdown';
import { PeriodNote } from '../components/PeriodPicker';
import { Status } from '../components/Status';
import { Table } from '../components/Table';
import { duration, percent } from '../format';
import type { Lang, Messages } from '../i18n';
import { periodParams, type PeriodChoice } from '../period';
import { useData } from '../useData';

/** How often "online now" refreshes: a little slower than the default 2 s heartbeat. */
const ONLINE_REFRESH_MS = 5000;
/** The campaign parameters, in the order a campaign link names them. */
const UTM = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const;
/** Window width classes from narrow to wide (the collector's SCREEN_CLASSES), unknown last: read as a scale. */
const SCREEN_ORDER = ['< 600', '600–1023', '1024–1439', '≥ 1440', 'unknown'];
const bySize = (rows: readonly Row[]) => [...rows].sort((a, b) => SCREEN_ORDER.indexOf(a.label) - SCREEN_ORDER.indexOf(b.label));

/**
 * Visitors online now (refreshing), then the chosen period beside the previous one: key figures,
 * page views over time (chart, and its values as a collapsed table), pages with time on page,
 * entry and exit pages, sources (by name, and the referring pages), campaigns, devices, browsers,
 * operating systems, countries and window widths.
 */
export function Overview({ t, lang, period }: { t: Messages; lang: Lang; period: PeriodChoice }) {
  const [online] = useData(() => getJson<Online>('online'), [], ONLINE_REFRESH_MS);
  const [traffic] = useData(() => getJson<Traffic>('traffic', periodParams(period)), [period]);
  const number = new Intl.NumberFormat(lang);
  const count = (n: number) => number.format(n);
  const regions = new Intl.DisplayNames(lang, { type: 'region', fallback: 'code' });
  /** A country's name in the admin's language from its ISO code (the code itself where the runtime knows none). */
  const countryName = (code: string) => {
    if (code === 'unknown') return t.unknown;
    try {
      return regions.of(code) ?? code;
    } catch {
      return code;
    }
  };
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
                cells={(p) => [p.page, number.format(p.visitors)]}
              />
            )}
          </>
        )}
      </Status>
    </section>
  );
  return (
    <>
      <Status loaded={traffic} t={t}>
        {(data) => {
          const figures: Array<[string, Compared, (n: number) => string]> = [
            [t.pageViews, data.summary.views, count],
            [t.visitors, data.summary.visitors, count],
            [t.visits, data.summary.visits, count],
            [t.bounceRate, data.summary.bounceRate, (n) => percent(n, lang)],
            [t.timeOnPage, data.summary.timeOnPage, (n) => duration(n, lang)],
          ];
          const chartTitle = t.viewsPer[data.period.unit]!;
          const short = (label: string) => (data.period.unit === 'day' ? label.slice(5) : label);
          const card = (id: string, title: string, body: React.ReactNode, hint?: string) => (
            <section aria-labelledby={id} className="card">
              <h2 id={id}>{title}</h2>
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
            more: Pick<React.ComponentProps<typeof Breakdown>, 'labelOf' | 'share' | 'extra'> = {},
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
              {...more}
            />
          );
          const campaigns = UTM.filter((key) => data[key].length > 0);
          return (
            <>
              <PeriodNote t={t} lang={lang} period={data.period} />
              <section aria-labelledby="figures-title" className="card">
                <h2 id="figures-title">{t.keyFigures}</h2>
                <dl className="figures" data-testid="figures">
                  {figures.map(([label, value, format]) => (
                    <div key={label}>
                      <dt>{label}</dt>
                      <dd>
                        <span className="value">{format(value.current)}</span>
                        <span className="prev">
                          {t.previous} {format(value.previous)}
                        </span>
                      </dd>
                    </div>
                  ))}
                </dl>
                <p className="hint">{t.figuresHint}</p>
              </section>
              {onlineCard}
              <section aria-labelledby="views-title" className="card">
                <h2 id="views-title">{chartTitle}</h2>
                <BarChart
                  values={data.series.map((d) => d.views)}
                  labels={data.series.map((d) => d.label)}
                  short={short}
                  caption={chartTitle}
                  previous={data.series.map((d) => d.previousViews)}
                  legend={t.chartLegend}
                />
                <details>
                  <summary>{t.chartTable}</summary>
                  <Table
                    testId="series-table"
                    columns={[
                      { label: t.bucket[data.period.unit]! },
                      { label: t.pageViews, num: true },
                      { label: t.visitors, num: true },
                      { label: t.previousPeriod },
                      { label: `${t.pageViews} (${t.previous})`, num: true },
                    ]}
                    items={data.series}
                    rowKey={(d) => `${d.label}-${d.previousLabel}`}
                    cells={(d) => [d.label, count(d.views), count(d.visitors), d.previousLabel ?? '', count(d.previousViews)]}
                  />
                </details>
              </section>
              <div className="grid">
                {card(
                  'pages-title',
                  t.topPages,
                  breakdown('top-pages', data.pages, t.page, t.pageViews, {
                    extra: {
                      header: t.timeOnPage,
                      cell: (row) => duration(data.pages.find((p) => p.label === row.label)!.timeOnPage, lang),
                    },
                  }),
                )}
                {card('entry-title', t.entryPages, breakdown('entry-pages', data.entryPages, t.page, t.entries))}
                {card('exit-title', t.exitPages, breakdown('exit-pages', data.exitPages, t.page, t.exits))}
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
                  breakdown('devices', data.devices, t.device, t.visits, {
                    labelOf: (row) => t.deviceNames[row.label] ?? row.label,
                    share: true,
                  }),
                )}
                {card(
                  'browsers-title',
                  t.browsers,
                  breakdown('browsers', data.browsers, t.browser, t.visits, {
                    labelOf: (row) => (row.label === 'unknown' ? t.unknown : row.label),
                    share: true,
                  }),
                )}
                {card(
                  'systems-title',
                  t.operatingSystems,
                  breakdown('operating-systems', data.operatingSystems, t.os, t.visits, {
                    labelOf: (row) => (row.label === 'unknown' ? t.unknown : row.label),
                    share: true,
                  }),
                )}
                {card(
                  'countries-title',
                  t.countries,
                  <>
                    {breakdown('countries', data.countries, t.country, t.visits, {
                      labelOf: (row) => countryName(row.label),
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
                  breakdown('screens', bySize(data.screens), t.screen, t.visits, {
                    labelOf: (row) => (row.label === 'unknown' ? t.unknown : `${row.label} px`),
                    share: true,
                  }),
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
