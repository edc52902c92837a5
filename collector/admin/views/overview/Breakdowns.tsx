import type { FilterName, Row, Traffic } from '../../api';
import { Breakdown } from '../../components/Breakdown';
import { countryName, duration, pathOf } from '../../format';
import type { Lang, Messages } from '../../i18n';
import { Card, type CsvExport } from './Card';
import { FILTER_OF } from './tables';

/** The campaign parameters, in the order a campaign link names them. */
const UTM = ['utmSource', 'utmMedium', 'utmCampaign', 'utmTerm', 'utmContent'] as const;
/** Window width classes from narrow to wide (the collector's SCREEN_CLASSES), unknown last: read as a scale. */
const SCREEN_ORDER = ['< 600', '600–1023', '1024–1439', '≥ 1440', 'unknown'];
const bySize = (rows: readonly Row[]) => [...rows].sort((a, b) => SCREEN_ORDER.indexOf(a.label) - SCREEN_ORDER.indexOf(b.label));

/**
 * The period's breakdowns, a card each: pages with time on page, entry and exit pages, sources (by
 * name, and the referring pages), campaigns, devices, browsers, operating systems, countries and
 * window widths. A click on a row filters by it (`pick`).
 */
export function Breakdowns({
  t,
  lang,
  data,
  count,
  csv,
  pick,
}: {
  t: Messages;
  lang: Lang;
  data: Traffic;
  count: (n: number) => string;
  csv: CsvExport;
  pick: (name: FilterName) => (row: Row) => void;
}) {
  // pages of more than one site: the host stays in the label
  const hosts = new Set(data.pages.map((p) => pathOf(p.label, true).split('/')[0]));
  const pageLabel = (row: Row) => pathOf(row.label, hosts.size > 1);
  const pageTitle = (row: Row) => row.label;
  // a browser's or system's name as given, `unknown` in the admin's language
  const named = (row: Row) => (row.label === 'unknown' ? t.unknown : row.label);
  const campaigns = UTM.filter((key) => data[key].length > 0);
  // each card's tables as CSV
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
  const card = (id: string, title: string, body: React.ReactNode, hint?: string) => (
    <Card t={t} id={id} title={title} tables={CARD_TABLES[id] ?? []} csv={csv} hint={hint}>
      {body}
    </Card>
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
        breakdown('entry-pages', data.entryPages, t.page, t.entries, { labelOf: pageLabel, titleOf: pageTitle }, 'entryPages'),
      )}
      {card(
        'exit-title',
        t.exitPages,
        breakdown('exit-pages', data.exitPages, t.page, t.exits, { labelOf: pageLabel, titleOf: pageTitle }, 'exitPages'),
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
        campaigns.length === 0 ? <p>{t.none}</p> : campaigns.map((key) => breakdown(key, data[key], t.utm[key]!, t.visits)),
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
  );
}
