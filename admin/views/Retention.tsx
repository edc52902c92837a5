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
    // t changes with the language only; the value loads once
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const saved = await postForm<Saved>('settings', { retentionDays: days });
      const d = saved.deleted;
      setMessage({ ok: true, text: d ? t.saved(d.formConsents + d.heartbeats + d.sessions) : t.savedOff });
    } catch (error) {
      setMessage({ ok: false, text: `${t.failed} ${(error as Error).message}` });
    }
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
