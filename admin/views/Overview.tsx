import { getJson, type Online, type Traffic } from '../api';
import { BarChart } from '../components/BarChart';
import { Status } from '../components/Status';
import type { Lang, Messages } from '../i18n';
import { useData } from '../usePoll';

/** How often "online now" refreshes: a little slower than the default 2 s heartbeat. */
const ONLINE_REFRESH_MS = 5000;

/** Visitors online now (refreshing), page views per day as a chart, and the top pages. */
export function Overview({ t, lang }: { t: Messages; lang: Lang }) {
  const [online] = useData(() => getJson<Online>('online'), [], ONLINE_REFRESH_MS);
  const [traffic] = useData(() => getJson<Traffic>('traffic'), []);
  const number = new Intl.NumberFormat(lang);
  return (
    <>
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
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t.page}</th>
                      <th scope="col" className="num">
                        {t.visitors}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.pages.map((p) => (
                      <tr key={p.page}>
                        <td className="url">{p.page}</td>
                        <td className="num">{number.format(p.visitors)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </Status>
      </section>
      <Status loaded={traffic} t={t}>
        {(data) => (
          <>
            <section aria-labelledby="views-title" className="card">
              <h2 id="views-title">{t.viewsPerDay}</h2>
              <BarChart values={data.days.map((d) => d.views)} labels={data.days.map((d) => d.day)} caption={t.viewsPerDay} />
              <details>
                <summary>{t.chartTable}</summary>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t.day}</th>
                      <th scope="col" className="num">
                        {t.pageViews}
                      </th>
                      <th scope="col" className="num">
                        {t.visitors}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.days.map((d) => (
                      <tr key={d.day}>
                        <td>{d.day}</td>
                        <td className="num">{number.format(d.views)}</td>
                        <td className="num">{number.format(d.visitors)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </details>
            </section>
            <section aria-labelledby="pages-title" className="card">
              <h2 id="pages-title">{t.topPages}</h2>
              {data.pages.length === 0 ? (
                <p>{t.none}</p>
              ) : (
                <table data-testid="top-pages">
                  <thead>
                    <tr>
                      <th scope="col">{t.page}</th>
                      <th scope="col" className="num">
                        {t.pageViews}
                      </th>
                      <th scope="col" className="num">
                        {t.visitors}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.pages.map((p) => (
                      <tr key={p.page}>
                        <td className="url">{p.page}</td>
                        <td className="num">{number.format(p.views)}</td>
                        <td className="num">{number.format(p.visitors)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
          </>
        )}
      </Status>
    </>
  );
}
