import { getJson, type ConsentStats } from '../api';
import { PeriodNote } from '../components/PeriodPicker';
import { Status } from '../components/Status';
import { bucketLabel } from '../format';
import { periodParams } from '../period';
import { useData } from '../useData';
import type { UnfilteredViewProps } from './props';

const CATEGORIES = ['1', '2', '3', '4'] as const;

/**
 * The period's choices beside the previous period's, then per hour, day or month with choices:
 * how many visitors chose, and the share allowing each category, as meters.
 */
export function ConsentStatsView({ t, lang, period, filtered = false }: UnfilteredViewProps) {
  const [loaded, , busy] = useData(() => getJson<ConsentStats>('consent-stats', periodParams(period)), [period]);
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  const count = new Intl.NumberFormat(lang);
  return (
    <Status loaded={loaded} t={t} busy={busy}>
      {(data) => {
        // newest first; days without choices carry no share worth a row
        const days = data.buckets.filter((d) => d.visitors > 0).reverse();
        const unit = t.bucket[data.period.unit]!;
        return (
          <>
            <PeriodNote t={t} lang={lang} period={data.period} />
            {filtered && (
              <p className="hint" data-testid="not-filtered">
                {t.notFiltered}
              </p>
            )}
            <section className="card" aria-labelledby="consent-total">
              <h2 id="consent-total">{t.consentTotal}</h2>
              <p className="hint">{t.consentCounted}</p>
              <table className="stack" data-testid="consent-total">
                <thead>
                  <tr>
                    <th scope="col">{t.period}</th>
                    <th scope="col" className="num">
                      {t.deciders}
                    </th>
                    {CATEGORIES.map((c) => (
                      <th scope="col" key={c} className="num">
                        {t.categories[Number(c)]}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {(
                    [
                      [t.periods[data.period.name]!, data.current],
                      [t.previousPeriod, data.previous],
                    ] as const
                  ).map(([name, shares]) => (
                    <tr key={name}>
                      <td data-label={t.period}>{name}</td>
                      <td className="num" data-label={t.deciders}>
                        {count.format(shares.visitors)}
                      </td>
                      {CATEGORIES.map((c) => (
                        <td key={c} className="num" data-label={t.categories[Number(c)]}>
                          {percent.format(shares.shares[c])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <section className="card" aria-labelledby="consent-title">
              <h2 id="consent-title">{t.consentTitle}</h2>
              <p className="hint">{t.consentHint}</p>
              {days.length === 0 ? (
                <p>{t.none}</p>
              ) : (
                <div className="scroll">
                  <table className="stack" data-testid="consent-stats">
                    <thead>
                      <tr>
                        <th scope="col">{unit}</th>
                        <th scope="col" className="num">
                          {t.deciders}
                        </th>
                        {CATEGORIES.map((c) => (
                          <th scope="col" key={c}>
                            {t.categories[Number(c)]}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {days.map((d) => (
                        <tr key={d.day}>
                          <td data-label={unit}>{bucketLabel(d.day, lang)}</td>
                          <td className="num" data-label={t.deciders}>
                            {count.format(d.visitors)}
                          </td>
                          {CATEGORIES.map((c) => (
                            <td key={c} className="share" data-label={t.categories[Number(c)]}>
                              <span>
                                <meter
                                  min={0}
                                  max={1}
                                  value={d.shares[c]}
                                  aria-label={`${t.categories[Number(c)]} ${bucketLabel(d.day, lang)}`}
                                />
                                <span>{percent.format(d.shares[c])}</span>
                              </span>
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
            </section>
          </>
        );
      }}
    </Status>
  );
}
