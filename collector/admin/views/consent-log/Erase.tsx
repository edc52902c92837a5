import { useState, type FormEvent } from 'react';
import type { Announce } from '../../announcer';
import { postForm, type Erased } from '../../api';
import { MarkedField, useFieldError } from '../../components/FieldError';
import { Result, useResult } from '../../components/Result';
import type { Messages } from '../../i18n';
import { CONSENT_ID, PSEUDONYM } from './ids';

/** What the one input holds, by the choice: the form field it is sent as (and the collector's refusal names). */
const BY = ['visitor', 'consent'] as const;
type By = (typeof BY)[number];

/**
 * Erasure of a visitor's data by pseudonym or consent ID, after a confirm; its outcome beside the
 * form and in the app's live region (`announce`). `onErased` reloads the log.
 */
export function Erase({ t, onErased, announce }: { t: Messages; onErased: () => void; announce: Announce }) {
  const [by, setBy] = useState<By>('visitor');
  const [value, setValue] = useState('');
  const result = useResult(t, announce);
  // the value the collector refused (past the pattern: an older browser, a script): marked, described, focused
  const invalid = useFieldError(BY);
  // not async: a form handler's returned promise would be dropped by React; the chain handles both ends
  const erase = (event: FormEvent): void => {
    event.preventDefault();
    // the form's own check first (noValidate: no bubble of the browser's), said as the collector's refusal is; nothing to confirm
    const wrong = invalid.checked();
    if (wrong !== undefined) return refused(wrong);
    const key = by === 'visitor' ? value.trim().toLowerCase() : value.trim();
    if (!window.confirm(t.eraseConfirm(key))) return;
    invalid.clear();
    postForm<Erased>('erase', { [by]: key }).then(
      (erased) => {
        // an unknown pseudonym or ID: said plainly (a typo is likelier than an erased visitor), the field kept to correct it
        if (erased.sessions === 0 && erased.records === 0) return result.warn((t) => t.nothingErased);
        result.done((t) => t.erased(erased.records));
        setValue('');
        onErased();
      },
      (error: unknown) => {
        const field = invalid.refused(error);
        if (field === undefined) return result.failed(error);
        refused(field);
      },
    );
  };
  /** The result for the value at fault, naming its field. */
  const refused = (field: By) =>
    result.refused((t) =>
      field === 'visitor'
        ? `${t.actionFailed} ${t.pseudonymFailed(t.pseudonym)}`
        : `${t.actionFailed} ${t.consentIdFailed(t.consentId)}`,
    );
  return (
    <section className="card" aria-labelledby="erase-title">
      <h2 id="erase-title">{t.eraseTitle}</h2>
      <p className="hint">{t.eraseHint}</p>
      <form className="filters" onSubmit={erase} noValidate>
        {/* first what the field is (its label and pattern follow the choice), then the field */}
        <label>
          {t.eraseBy}
          <select
            value={by}
            onChange={(e) => {
              setBy(e.target.value === 'consent' ? 'consent' : 'visitor');
              // another kind of value: the refusal was of the other one
              invalid.clear();
            }}
          >
            <option value="visitor">{t.pseudonym}</option>
            <option value="consent">{t.consentId}</option>
          </select>
        </label>
        <MarkedField
          invalid={invalid}
          field={by}
          id="erase-value-error"
          label={by === 'visitor' ? t.pseudonym : t.consentId}
          message={() => (by === 'visitor' ? t.pseudonymInvalid : t.consentIdInvalid)}
        >
          {(marks) => (
            <input
              {...marks}
              type="text"
              required
              pattern={by === 'visitor' ? PSEUDONYM : CONSENT_ID}
              value={value}
              placeholder={by === 'visitor' ? t.pseudonymHint : t.consentIdHint}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => {
                setValue(e.target.value);
                invalid.clear();
              }}
            />
          )}
        </MarkedField>
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
