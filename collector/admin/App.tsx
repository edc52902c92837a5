import { useEffect, useRef, useState } from 'react';
import { readAddress, writeAddress } from './address';
import type { Announce, Announcer } from './announcer';
import { getJson, type Filters } from './api';
import { LiveRegion } from './components/LiveRegion';
import { PeriodPicker } from './components/PeriodPicker';
import { MESSAGES, storeLang, storedLang, type Lang, type Messages } from './i18n';
import { storePeriod, storedPeriod, type PeriodChoice } from './period';
import { Clicks } from './views/Clicks';
import { ConsentLog } from './views/ConsentLog';
import { ConsentStatsView } from './views/ConsentStats';
import { Overview } from './views/Overview';
import { Retention } from './views/Retention';

/** The views, in menu order; the address's hash names the open one (#clicks), so each can be linked. */
const VIEWS = ['overview', 'clicks', 'consentStats', 'log', 'settings'] as const;
type View = (typeof VIEWS)[number];

/** The view the hash names; `fallback` for a hash that names none (the skip link's #main, an old link). */
function viewOfHash(fallback: View = 'overview'): View {
  const name = window.location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : fallback;
}

/**
 * The admin area: header with menu, language switch and sign-out, the open view, and the live region
 * that reads out what the views' actions did (`announcer`).
 */
export function App({ announcer }: { announcer: Announcer }) {
  const [lang, setLang] = useState<Lang>(storedLang);
  const [view, setView] = useState<View>(() => viewOfHash());
  // the address first (a bookmark, a reload), else the period chosen before in this browser
  const [period, setPeriod] = useState<PeriodChoice>(() => readAddress().period ?? storedPeriod());
  const [filters, setFilters] = useState<Filters>(() => readAddress().filters);
  const t = MESSAGES[lang];
  const heading = useRef<HTMLHeadingElement>(null);
  // the site's time zone: its today ends the date picker, token times are on its clock
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => {
    getJson<{ timeZone: string }>('settings').then(
      (settings) => setZone(settings.timeZone),
      () => undefined, // the browser's clock meanwhile; a view says what failed
    );
  }, []);
  /** Set when the admin changed the view (menu, Back): its heading then takes focus, so it is read out. */
  const moved = useRef(false);
  const choose = (next: PeriodChoice) => {
    storePeriod(next);
    setPeriod(next);
    writeAddress(next, filters);
  };
  const filter = (next: Filters) => {
    setFilters(next);
    writeAddress(period, next);
  };

  useEffect(() => {
    // an unknown hash keeps the view open
    const follow = () =>
      setView((open) => {
        const next = viewOfHash(open);
        if (next !== open) moved.current = true;
        return next;
      });
    // Back and Forward: the period and filters of that entry
    const restore = () => {
      const state = readAddress();
      setPeriod(state.period ?? storedPeriod());
      setFilters(state.filters);
    };
    window.addEventListener('hashchange', follow);
    window.addEventListener('popstate', restore);
    return () => {
      window.removeEventListener('hashchange', follow);
      window.removeEventListener('popstate', restore);
    };
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = `${t.views[view]} – ${t.title}`;
  }, [lang, view, t]);
  useEffect(() => {
    // not on the first load: focus stays at the start of the page, with the skip link first
    if (!moved.current) return;
    moved.current = false;
    heading.current?.focus();
    // the last view's result is not this one's
    announcer.clear();
  }, [view]);

  const switchLang = () => {
    const next: Lang = lang === 'de' ? 'en' : 'de';
    storeLang(next);
    setLang(next);
  };

  return (
    <>
      {/* focus to the content, the view kept (the hash names views: #main would name none) */}
      <a
        className="skip"
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById('main')?.focus();
        }}
      >
        {t.skip}
      </a>
      <header className="top">
        <div className="brand">{t.title}</div>
        <nav aria-label={t.nav}>
          <ul>
            {VIEWS.map((name) => (
              <li key={name}>
                {/* the query (period, filters) stays: only the view changes */}
                <a href={`#${name}`} aria-current={name === view ? 'page' : undefined}>
                  {t.views[name]}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="tools">
          <button
            type="button"
            className="link"
            onClick={switchLang}
            aria-label={t.languageLabel}
            lang={lang === 'de' ? 'en' : 'de'}
          >
            {t.language}
          </button>
          {/* a plain form post: the collector checks its Origin and ends the session */}
          <form method="post" action="/admin/logout">
            <button type="submit" className="secondary">
              {t.logout}
            </button>
          </form>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <h1 ref={heading} tabIndex={-1}>
          {t.views[view]}
        </h1>
        {view !== 'settings' && (
          <div className="period-bar">
            <PeriodPicker t={t} lang={lang} value={period} onChange={choose} timeZone={zone} announce={announcer.announce} />
            {(view === 'overview' || view === 'clicks') && (
              <p className="counted" data-testid="counted">
                {t.counted}
              </p>
            )}
          </div>
        )}
        <ViewOf
          view={view}
          t={t}
          lang={lang}
          period={period}
          filters={filters}
          onFilters={filter}
          zone={zone}
          onZone={setZone}
          announce={announcer.announce}
        />
      </main>
      <LiveRegion announcer={announcer} />
    </>
  );
}

function ViewOf({
  view,
  t,
  lang,
  period,
  filters,
  onFilters,
  zone,
  onZone,
  announce,
}: {
  view: View;
  t: Messages;
  lang: Lang;
  period: PeriodChoice;
  filters: Filters;
  onFilters: (filters: Filters) => void;
  zone: string | null;
  onZone: (zone: string) => void;
  announce: Announce;
}) {
  switch (view) {
    case 'overview':
      return <Overview t={t} lang={lang} period={period} filters={filters} onFilters={onFilters} announce={announce} />;
    case 'clicks':
      return <Clicks t={t} lang={lang} period={period} filters={filters} onFilters={onFilters} />;
    case 'consentStats':
      return <ConsentStatsView t={t} lang={lang} period={period} filtered={filters.length > 0} />;
    case 'log':
      return <ConsentLog t={t} lang={lang} period={period} filtered={filters.length > 0} announce={announce} />;
    case 'settings':
      return <Retention t={t} lang={lang} zone={zone} onZone={onZone} announce={announce} />;
  }
}
