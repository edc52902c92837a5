import { useEffect, useState, type FormEvent } from 'react';
import { getJson, postForm } from '../api';
import type { Messages } from '../i18n';

interface Saved {
  retentionDays: number;
  deleted: { formConsents: number; heartbeats: number; sessions: number } | null;
}

/** The retention setting: form consents and presence data are deleted after N days (0 = never). */
export function Retention({ t }: { t: Messages }) {
  const [days, setDays] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => {
    getJson<{ retentionDays: number }>('settings').then(
      (s) => setDays(String(s.retentionDays)),
      (error: Error) => setMessage({ ok: false, text: `${t.failed} ${error.message}` }),
    );
    // no `t` in the deps: it changes with the language only, and the value loads once
  }, []);
  // not async: a form handler's returned promise would be dropped by React; the chain handles both ends
  const save = (event: FormEvent): void => {
    event.preventDefault();
    postForm<Saved>('settings', { retentionDays: days }).then(
      (saved) => {
        const d = saved.deleted;
        setMessage({ ok: true, text: d ? t.saved(d.formConsents + d.heartbeats + d.sessions) : t.savedOff });
      },
      (error: Error) => setMessage({ ok: false, text: `${t.failed} ${error.message}` }),
    );
  };
  return (
    <section className="card" aria-labelledby="retention-title">
      <h2 id="retention-title">{t.retentionTitle}</h2>
      <p className="hint">{t.retentionHint}</p>
      <form className="filters" onSubmit={save}>
        <label>
          {t.retentionDays}
          <input type="number" min={0} max={3650} step={1} required value={days} onChange={(e) => setDays(e.target.value)} />
        </label>
        <div className="buttons">
          <button type="submit">{t.save}</button>
        </div>
      </form>
      <p role="status" className={message?.ok === false ? 'error' : 'ok'}>
        {message?.text}
      </p>
    </section>
  );
}
