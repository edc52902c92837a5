import { useEffect, useState } from 'react';
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

function viewOfHash(): View {
  const name = window.location.hash.slice(1);
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'overview';
}

/** The admin area: header with menu, language switch and sign-out, and the open view. */
export function App() {
  const [lang, setLang] = useState<Lang>(storedLang);
  const [view, setView] = useState<View>(viewOfHash);
  const [period, setPeriod] = useState<PeriodChoice>(storedPeriod);
  const t = MESSAGES[lang];
  const choose = (next: PeriodChoice) => {
    storePeriod(next);
    setPeriod(next);
  };

  useEffect(() => {
    const follow = () => setView(viewOfHash());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.title = `${t.views[view]} – ${t.title}`;
  }, [lang, view, t]);

  const switchLang = () => {
    const next: Lang = lang === 'de' ? 'en' : 'de';
    storeLang(next);
    setLang(next);
  };

  return (
    <>
      <a className="skip" href="#main">
        {t.skip}
      </a>
      <header className="top">
        <div className="brand">{t.title}</div>
        <nav aria-label={t.nav}>
          <ul>
            {VIEWS.map((name) => (
              <li key={name}>
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
        <h1>{t.views[view]}</h1>
        {view !== 'settings' && (
          <div className="period-bar">
            <PeriodPicker t={t} value={period} onChange={choose} />
            {(view === 'overview' || view === 'clicks') && (
              <p className="counted" data-testid="counted">
                {t.counted}
              </p>
            )}
          </div>
        )}
        <ViewOf view={view} t={t} lang={lang} period={period} />
      </main>
    </>
  );
}

function ViewOf({ view, t, lang, period }: { view: View; t: Messages; lang: Lang; period: PeriodChoice }) {
  switch (view) {
    case 'overview':
      return <Overview t={t} lang={lang} period={period} />;
    case 'clicks':
      return <Clicks t={t} lang={lang} period={period} />;
    case 'consentStats':
      return <ConsentStatsView t={t} lang={lang} period={period} />;
    case 'log':
      return <ConsentLog t={t} lang={lang} period={period} />;
    case 'settings':
      return <Retention t={t} />;
  }
}
