import type { Compared, Traffic } from '../../api';
import { Change } from '../../components/Change';
import { duration, percent } from '../../format';
import type { Lang, Messages } from '../../i18n';
import { CsvLinks, type CsvExport } from './Card';

/** The period's key figures, each beside the previous period's with its change. */
export function KeyFigures({
  t,
  lang,
  summary,
  count,
  csv,
}: {
  t: Messages;
  lang: Lang;
  summary: Traffic['summary'];
  count: (n: number) => string;
  csv: CsvExport;
}) {
  const before = summary.visits.previous === 0;
  const figures: Array<[string, Compared, (n: number) => string, boolean?]> = [
    [t.pageViews, summary.views, count],
    [t.visitors, summary.visitors, count],
    [t.visits, summary.visits, count],
    [t.bounceRate, summary.bounceRate, (n) => percent(n, lang), true],
    [t.timeOnPage, summary.timeOnPage, (n) => duration(n, lang)],
  ];
  return (
    <section aria-labelledby="figures-title" className="card">
      <div className="card-head">
        <h2 id="figures-title">{t.keyFigures}</h2>
        <CsvLinks t={t} title={t.keyFigures} tables={['summary']} csv={csv} />
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
  );
}
