import { useEffect, useState, type FormEvent } from 'react';
import { getJson, postForm, type RetentionDays, type SavedSettings } from '../api';
import type { Lang, Messages } from '../i18n';
import { Tokens } from './Tokens';

/** The retention settings, each 1 to 3650 days (nothing is kept forever). */
const FIELDS = [
  'visitRetentionDays',
  'clickRetentionDays',
  'formRetentionDays',
  'consentRetentionDays',
] as const satisfies ReadonlyArray<keyof RetentionDays>;

/** The settings: the site's time zone, and retention: page views and visits, clicks, form consents, cookie consents, each after N days. */
export function Retention({
  t,
  lang,
  zone,
  onZone,
}: {
  t: Messages;
  lang: Lang;
  /** The site's time zone as the app knows it (null until loaded); `onZone` when it is saved here. */
  zone: string | null;
  onZone: (zone: string) => void;
}) {
  const [days, setDays] = useState<Record<(typeof FIELDS)[number], string>>({
    visitRetentionDays: '',
    clickRetentionDays: '',
    formRetentionDays: '',
    consentRetentionDays: '',
  });
  // the values in force: a lower one deletes at once, so saving it is confirmed first
  const [kept, setKept] = useState<Partial<RetentionDays>>({});
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    getJson<RetentionDays>('settings').then(
      (s) => {
        setKept(s);
        setDays(Object.fromEntries(FIELDS.map((field) => [field, String(s[field])])) as Record<(typeof FIELDS)[number], string>);
      },
      (error: Error) => setMessage({ ok: false, text: `${t.failed} ${error.message}` }),
    );
    // no `t` in the deps: it changes with the language only, and the value loads once
  }, []);
  // not async: a form handler's returned promise would be dropped by React; the chain handles both ends
  const save = (event: FormEvent): void => {
    event.preventDefault();
    const lowered = FIELDS.flatMap((field): Array<[string, number, number]> => {
      const before = kept[field];
      return before !== undefined && Number(days[field]) < before ? [[t[field], before, Number(days[field])]] : [];
    });
    if (lowered.length > 0 && !window.confirm(t.retentionConfirm(lowered))) return;
    postForm<SavedSettings>('settings', days).then(
      (saved) => {
        setKept(saved);
        setMessage({ ok: true, text: t.saved(Object.values(saved.deleted).reduce((a, b) => a + b, 0)) });
      },
      (error: Error) => setMessage({ ok: false, text: `${t.failed} ${error.message}` }),
    );
  };
  return (
    <>
      <TimeZone t={t} onSaved={onZone} />
      <Tokens t={t} lang={lang} zone={zone} />
      <section className="card" aria-labelledby="retention-title">
        <h2 id="retention-title">{t.retentionTitle}</h2>
        <p className="hint">{t.retentionHint}</p>
        <form className="filters" onSubmit={save}>
          {FIELDS.map((field) => (
            <label key={field}>
              {t[field]}
              <input
                type="number"
                min={1}
                max={3650}
                step={1}
                required
                value={days[field]}
                onChange={(e) => setDays((d) => ({ ...d, [field]: e.target.value }))}
              />
            </label>
          ))}
          <div className="buttons">
            <button type="submit">{t.save}</button>
          </div>
        </form>
        <p role="status" className={message?.ok === false ? 'error' : 'ok'}>
          {message?.text}
        </p>
      </section>
    </>
  );
}

/** The site's time zone: the days, hours and months of every view (validated by the collector). */
function TimeZone({ t, onSaved }: { t: Messages; onSaved: (zone: string) => void }) {
  const [zone, setZone] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    getJson<{ timeZone: string }>('settings').then(
      (s) => setZone(s.timeZone),
      (error: Error) => setMessage({ ok: false, text: `${t.failed} ${error.message}` }),
    );
    // loads once, as the retention settings do
  }, []);
  // not async: a form handler's returned promise would be dropped by React
  const save = (event: FormEvent): void => {
    event.preventDefault();
    postForm<{ timeZone: string }>('settings', { timeZone: zone.trim() }).then(
      (saved) => {
        setZone(saved.timeZone);
        onSaved(saved.timeZone);
        setMessage({ ok: true, text: t.savedZone });
      },
      (error: Error) => setMessage({ ok: false, text: `${t.failed} ${error.message}` }),
    );
  };
  return (
    <section className="card" aria-labelledby="zone-title">
      <h2 id="zone-title">{t.timeZoneTitle}</h2>
      <p className="hint">{t.timeZoneHint}</p>
      <form className="filters" onSubmit={save}>
        <label>
          {t.timeZoneLabel}
          <input
            type="text"
            required
            spellCheck={false}
            autoComplete="off"
            value={zone}
            onChange={(e) => setZone(e.target.value)}
          />
        </label>
        <div className="buttons">
          <button type="submit">{t.save}</button>
        </div>
      </form>
      <p role="status" className={message?.ok === false ? 'error' : 'ok'} data-testid="zone-status">
        {message?.text}
      </p>
    </section>
  );
}
