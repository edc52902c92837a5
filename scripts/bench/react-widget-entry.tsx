// Bench-only: a bare React 19 widget of the same size as our consent banner (same elements, same
// styles, in a shadow root), mounted the way a plain React widget is: createRoot + render when the
// script runs. The React build's overhead is measured over this (docs/decisions.md, start-up order).
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import baseCss from '../../src/ui/base.css?inline';
import css from '../../src/ui/consent/consent.css?inline';

const NAMES = ['Notwendig', 'Präferenzen', 'Statistiken', 'Marketing'];

function Banner() {
  const [draft, setDraft] = useState([true, false, true, false]);
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <section className="banner" role="dialog" aria-modal="false" aria-labelledby="w-title" aria-describedby="w-text">
      <h2 id="w-title">Cookies und Datenschutz</h2>
      <p id="w-text">
        Wir verwenden Cookies, um unsere Website und unseren Service zu optimieren.{' '}
        <a href="/kontakt/datenschutz.html">Datenschutzerklärung</a>
      </p>
      <fieldset>
        <legend>Kategorien</legend>
        {NAMES.map((name, i) => (
          <span className="category" key={name}>
            <input
              type="checkbox"
              id={`w-cat-${i}`}
              checked={draft[i]}
              disabled={i === 0}
              onChange={(event) => setDraft(draft.map((on, j) => (j === i ? event.currentTarget.checked : on)))}
            />
            <label htmlFor={`w-cat-${i}`} className="label">
              <button type="button" className="name" aria-haspopup="dialog">
                {name}
              </button>
            </label>
            {i === 0 && <span className="locked">(immer aktiv)</span>}
          </span>
        ))}
      </fieldset>
      <div className="actions">
        <button type="button" onClick={() => setOpen(false)}>
          Ablehnen
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Auswahl speichern
        </button>
        <button type="button" className="primary" onClick={() => setOpen(false)}>
          Alle akzeptieren
        </button>
      </div>
      <dialog aria-labelledby="w-details">
        <h2 id="w-details">Details</h2>
      </dialog>
    </section>
  );
}

const host = document.createElement('pagepulse-consent');
document.body.appendChild(host);
const shadow = host.attachShadow({ mode: 'open' });
const sheet = new CSSStyleSheet();
sheet.replaceSync(baseCss + css);
shadow.adoptedStyleSheets = [sheet];
const container = document.createElement('div');
shadow.appendChild(container);
createRoot(container).render(<Banner />);
