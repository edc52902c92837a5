import { getJson, type ConsentStats } from '../api';
import { Status } from '../components/Status';
import type { Lang, Messages } from '../i18n';
import { useData } from '../useData';

const CATEGORIES = ['1', '2', '3', '4'] as const;

/** Per day with choices: how many visitors chose, and the share allowing each category, as bars. */
export function ConsentStatsView({ t, lang }: { t: Messages; lang: Lang }) {
  const [loaded] = useData(() => getJson<ConsentStats>('consent-stats'), []);
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <Status loaded={loaded} t={t}>
      {(data) => {
        // newest first; days without choices carry no share worth a row
        const days = data.days.filter((d) => d.visitors > 0).reverse();
        return (
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
                      <th scope="col">{t.day}</th>
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
                        <td data-label={t.day}>{d.day}</td>
                        <td className="num" data-label={t.deciders}>
                          {d.visitors}
                        </td>
                        {CATEGORIES.map((c) => (
                          <td key={c} className="share" data-label={t.categories[Number(c)]}>
                            <span>
                              <meter min={0} max={1} value={d.shares[c]} aria-label={`${t.categories[Number(c)]} ${d.day}`} />
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
        );
      }}
    </Status>
  );
}
