import { getJson, type Online } from '../../api';
import { Status } from '../../components/Status';
import { Table } from '../../components/Table';
import { pathOf } from '../../format';
import type { Lang, Messages } from '../../i18n';
import { useData, type Loaded } from '../../useData';

/** How often "online now" refreshes: a little slower than the default 2 s heartbeat. */
const ONLINE_REFRESH_MS = 5000;

/** Visitors online now, read again every ONLINE_REFRESH_MS (not bound to the period or the filters). */
export function useOnline(): Loaded<Online> {
  const [online] = useData(() => getJson<Online>('online'), [], ONLINE_REFRESH_MS);
  return online;
}

/** The card of visitors online now: their count and the pages they are on. */
export function OnlineNow({ t, lang, online }: { t: Messages; lang: Lang; online: Loaded<Online> }) {
  const number = new Intl.NumberFormat(lang);
  return (
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
}
