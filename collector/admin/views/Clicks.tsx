import { getJson, type ClickPages } from '../api';
import { Status } from '../components/Status';
import { Table } from '../components/Table';
import type { Messages } from '../i18n';
import { useData } from '../useData';

/**
 * The page's address with `#pagepulse-heatmap`, which makes the bundle draw its stored clicks (a
 * fragment, because clicks are stored under the address without one). Only for http(s) pages: page
 * addresses come from visitors' requests, so never a `javascript:` link.
 */
export function heatmapLink(page: string): string | null {
  try {
    const url = new URL(page);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = 'pagepulse-heatmap';
    return url.href;
  } catch {
    return null;
  }
}

/** The most clicked selectors per page, each page with a link that opens it with the heatmap. */
export function Clicks({ t }: { t: Messages }) {
  const [loaded] = useData(() => getJson<ClickPages>('clicks'), []);
  return (
    <Status loaded={loaded} t={t}>
      {(data) => (
        <>
          <p className="hint">{t.clicksHint}</p>
          {data.pages.length === 0 && <p>{t.none}</p>}
          {data.pages.map((p, i) => {
            const link = heatmapLink(p.page);
            return (
              <section key={p.page} className="card" aria-labelledby={`clicks-${i}`}>
                <h2 id={`clicks-${i}`} className="url">
                  {p.page}
                </h2>
                {link && (
                  <p>
                    <a href={link} target="_blank" rel="noopener noreferrer" data-testid="heatmap-link">
                      {t.openHeatmap}
                    </a>
                  </p>
                )}
                <Table
                  columns={[{ label: t.selector }, { label: t.clicks, num: true }]}
                  items={p.selectors}
                  rowKey={(s) => s.selector}
                  cells={(s) => [<code>{s.selector}</code>, s.count]}
                />
              </section>
            );
          })}
        </>
      )}
    </Status>
  );
}
