import { filterFields } from '../address';
import type { Announce } from '../announcer';
import { getJson, type FilterName, type Row, type Traffic } from '../api';
import { FilterChips } from '../components/FilterChips';
import { PeriodNote } from '../components/PeriodPicker';
import { Status } from '../components/Status';
import { periodParams } from '../period';
import { useData } from '../useData';
import { Breakdowns } from './overview/Breakdowns';
import { KeyFigures } from './overview/KeyFigures';
import { OnlineNow, useOnline } from './overview/OnlineNow';
import { trafficCsv } from './overview/tables';
import { ViewsChart } from './overview/ViewsChart';
import type { FilteredViewProps } from './props';

/**
 * Visitors online now (refreshing), then the chosen period beside the previous one: key figures,
 * page views over time (chart, and its values as a collapsed table), pages with time on page,
 * entry and exit pages, sources (by name, and the referring pages), campaigns, devices, browsers,
 * operating systems, countries and window widths (views/overview/, a file each).
 */
export function Overview({ t, lang, period, filters, onFilters, announce }: FilteredViewProps & { announce: Announce }) {
  const online = useOnline();
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
  // each card's tables as CSV, with the view's period and filters; a failed export is read out
  const csv = { href: trafficCsv(period, fields), announce };
  // not bound to the period: between the period's key figures and its details
  const onlineCard = <OnlineNow t={t} lang={lang} online={online} />;
  return (
    <>
      <Status loaded={traffic} t={t} busy={trafficBusy} testId="overview-data">
        {(data) => (
          <>
            <PeriodNote t={t} lang={lang} period={data.period} />
            <FilterChips t={t} lang={lang} filters={filters} onChange={onFilters} />
            <KeyFigures t={t} lang={lang} summary={data.summary} count={count} csv={csv} />
            {onlineCard}
            <ViewsChart t={t} lang={lang} period={data.period} series={data.series} count={count} csv={csv} />
            <Breakdowns t={t} lang={lang} data={data} count={count} csv={csv} pick={pick} />
          </>
        )}
      </Status>
      {/* while the period loads (or if it fails), who is online now still shows */}
      {traffic.state !== 'ok' && onlineCard}
    </>
  );
}
