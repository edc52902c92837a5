import { getJson, type Online, type Traffic } from '../api';
import { BarChart } from '../components/BarChart';
import { Status } from '../components/Status';
import { Table } from '../components/Table';
import type { Lang, Messages } from '../i18n';
import { useData } from '../useData';

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
      <Status loaded={traffic} t={t}>
        {(data) => (
          <>
            <section aria-labelledby="views-title" className="card">
              <h2 id="views-title">{t.viewsPerDay}</h2>
              <BarChart values={data.days.map((d) => d.views)} labels={data.days.map((d) => d.day)} caption={t.viewsPerDay} />
              <details>
                <summary>{t.chartTable}</summary>
                <Table
                  columns={[{ label: t.day }, { label: t.pageViews, num: true }, { label: t.visitors, num: true }]}
                  items={data.days}
                  rowKey={(d) => d.day}
                  cells={(d) => [d.day, number.format(d.views), number.format(d.visitors)]}
                />
              </details>
            </section>
            <section aria-labelledby="pages-title" className="card">
              <h2 id="pages-title">{t.topPages}</h2>
              {data.pages.length === 0 ? (
                <p>{t.none}</p>
              ) : (
                <Table
                  testId="top-pages"
                  columns={[
                    { label: t.page, className: 'url' },
                    { label: t.pageViews, num: true },
                    { label: t.visitors, num: true },
                  ]}
                  items={data.pages}
                  rowKey={(p) => p.page}
                  cells={(p) => [p.page, number.format(p.views), number.format(p.visitors)]}
                />
              )}
            </section>
          </>
        )}
      </Status>
    </>
  );
}
