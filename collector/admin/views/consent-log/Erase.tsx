import { useState, type FormEvent } from 'react';
import type { Announce } from '../../announcer';
import { postForm, type Erased } from '../../api';
import { Result, useResult } from '../../components/Result';
import type { Messages } from '../../i18n';
import { CONSENT_ID, PSEUDONYM } from './ids';

/**
 * Erasure of a visitor's data by pseudonym or consent ID, after a confirm; its outcome beside the
 * form and in the app's live region (`announce`). `onErased` reloads the log.
 */
export function Erase({ t, onErased, announce }: { t: Messages; onErased: () => void; announce: Announce }) {
  const [by, setBy] = useState<'visitor' | 'consent'>('visitor');
  const [value, setValue] = useState('');
  const result = useResult(t, announce);
  // not async: a form handler's returned promise would be dropped by React; the chain handles both ends
  const erase = (event: FormEvent): void => {
    event.preventDefault();
    const key = by === 'visitor' ? value.trim().toLowerCase() : value.trim();
    if (!window.confirm(t.eraseConfirm(key))) return;
    postForm<Erased>('erase', { [by]: key }).then(
      (erased) => {
        // an unknown pseudonym or ID: said plainly (a typo is likelier than an erased visitor), the field kept to correct it
        if (erased.sessions === 0 && erased.records === 0) return result.warn((t) => t.nothingErased);
        result.done((t) => t.erased(erased.records));
        setValue('');
        onErased();
      },
      (error: unknown) => result.failed(error),
    );
  };
  return (
    <section className="card" aria-labelledby="erase-title">
      <h2 id="erase-title">{t.eraseTitle}</h2>
      <p className="hint">{t.eraseHint}</p>
      <form className="filters" onSubmit={erase}>
        {/* first what the field is (its label and pattern follow the choice), then the field */}
        <label>
          {t.eraseBy}
          <select value={by} onChange={(e) => setBy(e.target.value === 'consent' ? 'consent' : 'visitor')}>
            <option value="visitor">{t.pseudonym}</option>
            <option value="consent">{t.consentId}</option>
          </select>
        </label>
        <label>
          {by === 'visitor' ? t.pseudonym : t.consentId}
          <input
            type="text"
            required
            pattern={by === 'visitor' ? PSEUDONYM : CONSENT_ID}
            value={value}
            placeholder={by === 'visitor' ? t.pseudonymHint : t.consentIdHint}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <div className="buttons">
          <button type="submit" className="danger">
            {t.erase}
          </button>
        </div>
      </form>
      <Result outcome={result.outcome} t={t} testId="erase-result" />
    </section>
  );
}
