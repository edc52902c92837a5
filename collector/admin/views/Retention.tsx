import { useEffect, useState, type FormEvent } from 'react';
import type { Announce } from '../announcer';
import { getJson, postForm, type RetentionDays, type SavedSettings } from '../api';
import { MarkedField, useFieldError } from '../components/FieldError';
import { Result, useResult } from '../components/Result';
import type { Lang, Messages } from '../i18n';
import { Tokens } from './Tokens';

/** The retention settings, each 1 to 3650 days (nothing is kept forever). */
const FIELDS = [
  'visitRetentionDays',
  'clickRetentionDays',
  'formRetentionDays',
  'consentRetentionDays',
] as const satisfies ReadonlyArray<keyof RetentionDays>;
type Field = (typeof FIELDS)[number];
/** Each field's range: its input's min and max, and what its message and the form's hint say (the collector's own, which still checks). */
const DAYS = { min: 1, max: 3650 } as const;
/** The time zone's field (`field` timeZone), described by the form's result. */
const ZONE = ['timeZone'] as const;

/** The settings: the site's time zone, and retention: page views and visits, clicks, form consents, cookie consents, each after N days. */
export function Retention({
  t,
  lang,
  zone,
  onZone,
  announce,
}: {
  t: Messages;
  lang: Lang;
  /** The site's time zone as the app knows it (null until loaded); `onZone` when it is saved here. */
  zone: string | null;
  onZone: (zone: string) => void;
  /** Says each form's result to screen readers (the app's live region). */
  announce: Announce;
}) {
  const [days, setDays] = useState<Record<Field, string>>({
    visitRetentionDays: '',
    clickRetentionDays: '',
    formRetentionDays: '',
    consentRetentionDays: '',
  });
  // the values in force: a lower one deletes at once, so saving it is confirmed first
  const [kept, setKept] = useState<Partial<RetentionDays>>({});
  const result = useResult(t, announce);
  // the field the collector refused: marked, described by the message under it, focused
  const invalid = useFieldError(FIELDS);
  useEffect(() => {
    getJson<RetentionDays>('settings').then(
      (s) => {
        setKept(s);
        setDays(Object.fromEntries(FIELDS.map((field) => [field, String(s[field])])) as Record<Field, string>);
      },
      (error: unknown) => result.failed(error, (t) => t.failed),
    );
    // loads once: `result` is a new object each render, and its texts follow the language
  }, []);
  // not async: a form handler's returned promise would be dropped by React; the chain handles both ends
  const save = (event: FormEvent): void => {
    event.preventDefault();
    // the form's own check first (noValidate: no bubble of the browser's), said as the collector's refusal is
    const wrong = invalid.checked();
    if (wrong !== undefined) return refused(wrong);
    const lowered = FIELDS.flatMap((field): Array<[string, number, number]> => {
      const before = kept[field];
      return before !== undefined && Number(days[field]) < before ? [[t[field], before, Number(days[field])]] : [];
    });
    if (lowered.length > 0 && !window.confirm(t.retentionConfirm(lowered))) return;
    invalid.clear();
    postForm<SavedSettings>('settings', days).then(
      (saved) => {
        setKept(saved);
        const deleted = Object.values(saved.deleted).reduce((a, b) => a + b, 0);
        result.done((t) => t.saved(deleted));
      },
      (error: unknown) => {
        const field = invalid.refused(error);
        if (field === undefined) return result.failed(error);
        refused(field);
      },
    );
  };
  /** The result for a field at fault, naming it. */
  const refused = (field: Field) => result.refused((t) => `${t.actionFailed} ${t.retentionFieldFailed(t[field], DAYS)}`);
  return (
    <>
      <TimeZone t={t} onSaved={onZone} announce={announce} />
      <Tokens t={t} lang={lang} zone={zone} announce={announce} />
      <section className="card" aria-labelledby="retention-title">
        <h2 id="retention-title">{t.retentionTitle}</h2>
        <p className="hint">{t.retentionHint(DAYS)}</p>
        <form className="filters" onSubmit={save} noValidate>
          {FIELDS.map((field) => (
            <MarkedField
              key={field}
              invalid={invalid}
              field={field}
              id={`${field}-error`}
              label={t[field]}
              message={() => t.retentionInvalid(DAYS)}
            >
              {(marks) => (
                <input
                  {...marks}
                  type="number"
                  min={DAYS.min}
                  max={DAYS.max}
                  step={1}
                  required
                  value={days[field]}
                  onChange={(e) => {
                    setDays((d) => ({ ...d, [field]: e.target.value }));
                    invalid.clear(field);
                  }}
                />
              )}
            </MarkedField>
          ))}
          <div className="buttons">
            <button type="submit">{t.save}</button>
          </div>
        </form>
        <Result outcome={result.outcome} t={t} testId="retention-result" />
      </section>
    </>
  );
}

/** The site's time zone: the days, hours and months of every view (validated by the collector). */
function TimeZone({ t, onSaved, announce }: { t: Messages; onSaved: (zone: string) => void; announce: Announce }) {
  const [zone, setZone] = useState('');
  const result = useResult(t, announce);
  // refused by the collector (`field` timeZone): the field is marked, described by the result, and focused
  const invalid = useFieldError(ZONE);
  useEffect(() => {
    getJson<{ timeZone: string }>('settings').then(
      (s) => setZone(s.timeZone),
      (error: unknown) => result.failed(error, (t) => t.failed),
    );
    // loads once, as the retention settings do
  }, []);
  // not async: a form handler's returned promise would be dropped by React
  const save = (event: FormEvent): void => {
    event.preventDefault();
    // empty: marked as the collector's refusal is, described by the result
    if (invalid.checked() !== undefined) return result.refused((t) => `${t.actionFailed} ${t.timeZoneMissing}`);
    invalid.clear();
    postForm<{ timeZone: string }>('settings', { timeZone: zone.trim() }).then(
      (saved) => {
        setZone(saved.timeZone);
        onSaved(saved.timeZone);
        result.done((t) => t.savedZone);
      },
      (error: unknown) => {
        result.failed(error);
        invalid.refused(error);
      },
    );
  };
  return (
    <section className="card" aria-labelledby="zone-title">
      <h2 id="zone-title">{t.timeZoneTitle}</h2>
      <p className="hint">{t.timeZoneHint}</p>
      <form className="filters" onSubmit={save} noValidate>
        <label>
          {t.timeZoneLabel}
          <input
            type="text"
            required
            spellCheck={false}
            autoComplete="off"
            value={zone}
            {...invalid.input('timeZone', 'zone-result')}
            onChange={(e) => {
              setZone(e.target.value);
              invalid.clear();
            }}
          />
        </label>
        <div className="buttons">
          <button type="submit">{t.save}</button>
        </div>
      </form>
      <Result outcome={result.outcome} t={t} testId="zone-status" id="zone-result" />
    </section>
  );
}
