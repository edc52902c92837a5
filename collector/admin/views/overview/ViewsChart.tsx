import type { PeriodInfo, Traffic } from '../../api';
import { BarChart } from '../../components/BarChart';
import { Table } from '../../components/Table';
import { bucketLabel } from '../../format';
import type { Lang, Messages } from '../../i18n';
import { CsvLinks, type CsvExport } from './Card';

/** Page views over time beside the previous period's: the chart, and its values as a collapsed table. */
export function ViewsChart({
  t,
  lang,
  period,
  series,
  count,
  csv,
}: {
  t: Messages;
  lang: Lang;
  period: PeriodInfo;
  series: Traffic['series'];
  count: (n: number) => string;
  csv: CsvExport;
}) {
  const chartTitle = t.viewsPer[period.unit]!;
  const short = (label: string) => bucketLabel(label, lang, true);
  return (
    <section aria-labelledby="views-title" className="card">
      <div className="card-head">
        <h2 id="views-title">{chartTitle}</h2>
        <CsvLinks t={t} title={chartTitle} tables={['series']} csv={csv} />
      </div>
      <BarChart
        values={series.map((d) => d.views)}
        labels={series.map((d) => d.label)}
        long={(label) => bucketLabel(label, lang)}
        short={short}
        format={count}
        caption={chartTitle}
        previous={series.map((d) => d.previousViews)}
        legend={t.chartLegend}
      />
      <details>
        <summary>{t.chartTable}</summary>
        <Table
          testId="series-table"
          stack
          columns={[
            { label: t.bucket[period.unit]! },
            { label: t.pageViews, num: true },
            { label: t.visitors, num: true },
            { label: t.previousPeriod },
            { label: `${t.pageViews} (${t.previous})`, num: true },
          ]}
          items={series}
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
  );
}
