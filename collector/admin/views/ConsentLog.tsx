import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Announce } from '../announcer';
import { getJson, postForm, type ConsentEntry, type ConsentLog as Log, type Erased } from '../api';
import { PeriodNote } from '../components/PeriodPicker';
import { Result, useResult } from '../components/Result';
import { Status } from '../components/Status';
import type { Messages } from '../i18n';
import { periodParams } from '../period';
import { useData } from '../useData';
import type { UnfilteredViewProps } from './props';

/** The log's own filter; its time range is the period picker's. */
interface Filter {
  visitor: string;
  consent: string;
}
const NO_FILTER: Filter = { visitor: '', consent: '' };
const PSEUDONYM = '[0-9a-fA-F]{12}';
/** A consent ID as the bundle makes it (16 to 64 base64url characters; the collector checks the rest). */
const CONSENT_ID = '[A-Za-z0-9_\\-]{16,64}';
/** Records per answer, and how many more "load older" asks for: up to the API's limit (collector/server/admin/api.ts). */
const LOG_STEP = 200;
const LOG_MAX = 2000;

/** How many records are shown, and whether older ones may exist (a full answer). */
function countText(t: Messages, log: Log & { limit: number }): string {
  const n = log.consents.length;
  if (n === 0) return t.none;
  return n < log.limit ? t.rows(n) : n >= LOG_MAX ? t.newestAll(n) : t.newest(n);
}

/**
 * The consent log of the chosen period (times on the site's clock): search by pseudonym or consent
 * ID, CSV export of the same filter, erasure. A search, a reset, a click on a pseudonym or ID and
 * "load older" announce how many records they found (`announce`, the app's live region).
 */
export function ConsentLog({ t, lang, period, filtered = false, announce }: UnfilteredViewProps & { announce: Announce }) {
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [draft, setDraft] = useState<Filter>(NO_FILTER);
  const query = { ...periodParams(period), ...filter };
  // the newest LOG_STEP records; "load older" asks again for more; a new period or search starts over
  const scope = JSON.stringify(query);
  const [rows, setRows] = useState({ scope, limit: LOG_STEP });
  const limit = rows.scope === scope ? rows.limit : LOG_STEP;
  // each answer with the limit it was asked for: until the longer one arrives, the shorter one stays full
  const [loaded, reload, busy] = useData(
    () => getJson<Log>('consents', { ...query, limit: String(limit) }).then((log) => ({ ...log, limit })),
    [scope, limit],
  );
  const csvLink = useRef<HTMLAnchorElement>(null);
  // at the API's limit the button goes: focus to the CSV export, which has every record
  const toCsv = useRef(false);
  const shownRows = loaded.state === 'ok' ? loaded.data.consents.length : 0;
  useEffect(() => {
    if (toCsv.current && shownRows >= LOG_MAX) {
      toCsv.current = false;
      csvLink.current?.focus();
    }
  }, [shownRows]);
  // the admin's searches so far, and those whose result was announced: the count is said once the
  // asked records are shown (not on a period's change or an erasure's reload, which say their own)
  const [asked, setAsked] = useState(0);
  const told = useRef(0);
  useEffect(() => {
    if (told.current === asked || busy || loaded.state === 'loading') return;
    told.current = asked;
    // a failed read says so itself (Status: an alert)
    if (loaded.state === 'ok') announce(countText(t, loaded.data));
  }, [asked, busy, loaded]);
  const older = () => {
    const next = Math.min(limit + LOG_STEP, LOG_MAX);
    toCsv.current = next === LOG_MAX;
    setRows({ scope, limit: next });
    setAsked((n) => n + 1);
  };
  const csv = `/admin/consents.csv?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== '')).toString()}`;

  const search = (event: FormEvent) => {
    event.preventDefault();
    setFilter({ ...draft, visitor: draft.visitor.trim().toLowerCase(), consent: draft.consent.trim() });
    // the same search again: from the newest records again
    setRows({ scope, limit: LOG_STEP });
    setAsked((n) => n + 1);
  };
  const reset = () => {
    setDraft(NO_FILTER);
    setFilter(NO_FILTER);
    setAsked((n) => n + 1);
  };
  const only = (visitor: string) => {
    setDraft({ ...draft, visitor });
    setFilter({ ...filter, visitor });
    setAsked((n) => n + 1);
  };
  const onlyConsent = (consent: string) => {
    setDraft({ ...draft, consent });
    setFilter({ ...filter, consent });
    setAsked((n) => n + 1);
  };
  const choice = (row: ConsentEntry): string =>
    row.kind === 'form' ? (row.deletedAt ? t.withdrawn : t.given) : row.granted ? t.allow : t.deny;

  return (
    <>
      {loaded.state === 'ok' && loaded.data.period && (
        <PeriodNote t={t} lang={lang} period={loaded.data.period} compared={false} />
      )}
      {filtered && (
        <p className="hint" data-testid="not-filtered">
          {t.notFiltered}
        </p>
      )}
      <section className="card" aria-labelledby="log-filter">
        <h2 id="log-filter">{t.search}</h2>
        <form className="filters" onSubmit={search} role="search">
          <label>
            {t.pseudonym}
            <input
              type="text"
              value={draft.visitor}
              pattern={PSEUDONYM}
              placeholder={t.pseudonymHint}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => setDraft({ ...draft, visitor: e.target.value })}
            />
          </label>
          <label>
            {t.consentId}
            <input
              type="text"
              value={draft.consent}
              pattern={CONSENT_ID}
              placeholder={t.consentIdHint}
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => setDraft({ ...draft, consent: e.target.value })}
            />
          </label>
          <div className="buttons">
            <button type="submit">{t.search}</button>
            <button type="button" className="secondary" onClick={reset}>
              {t.reset}
            </button>
            <a className="button secondary" href={csv} download data-testid="csv-link" ref={csvLink}>
              {t.exportCsv}
            </a>
          </div>
        </form>
      </section>
      <section className="card" aria-labelledby="log-title">
        <h2 id="log-title">{t.logTitle}</h2>
        <Status loaded={loaded} t={t} busy={busy}>
          {(data) => {
            const time = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'medium', timeZone: data.timeZone });
            const n = data.consents.length;
            // a full answer: older records may exist (the newest `limit` of the period)
            const full = n >= data.limit;
            return data.consents.length === 0 ? (
              <p>{t.none}</p>
            ) : (
              <>
                {/* announced after a search (above), not at every load */}
                <p className="hint" data-testid="log-count">
                  {countText(t, data)}
                </p>
                {full && n < LOG_MAX && (
                  <p>
                    <button type="button" className="secondary" onClick={older}>
                      {t.loadOlder}
                    </button>
                  </p>
                )}
                <div className="scroll">
                  <table className="log stack" data-testid="consent-log">
                    <thead>
                      <tr>
                        <th scope="col">{t.time}</th>
                        <th scope="col">{t.pseudonym}</th>
                        <th scope="col">{t.consentId}</th>
                        <th scope="col">{t.kind}</th>
                        <th scope="col">{t.choice}</th>
                        <th scope="col">{t.details}</th>
                        <th scope="col">{t.userAgent}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.consents.map((row) => (
                        <tr key={`${row.kind}-${row.id}`}>
                          <td className="nowrap" data-label={t.time}>
                            {time.format(new Date(row.at))}
                          </td>
                          <td data-label={t.pseudonym}>
                            <button type="button" className="link mono" onClick={() => only(row.visitor)} title={t.showVisitor}>
                              {row.visitor}
                            </button>
                          </td>
                          <td data-label={t.consentId} className={row.consentId ? undefined : 'empty'}>
                            {row.consentId && (
                              <button
                                type="button"
                                className="link mono consent-id"
                                onClick={() => onlyConsent(row.consentId!)}
                                title={t.showConsent}
                              >
                                {row.consentId}
                              </button>
                            )}
                          </td>
                          <td data-label={t.kind}>
                            {t.kinds[row.kind]}
                            {row.category !== null && `: ${t.categories[row.category]}`}
                          </td>
                          <td data-label={t.choice}>{choice(row)}</td>
                          <td data-label={t.details} className={row.kind === 'form' ? 'form' : 'empty'}>
                            {row.kind === 'form' && (
                              <div>
                                <div className="url">{row.url}</div>
                                <div>
                                  {t.formName}: <code>{row.formId || row.formName}</code>
                                </div>
                                <dl className="fields">
                                  {Object.entries(row.fields ?? {}).map(([label, value]) => (
                                    <div key={label}>
                                      <dt>{label}</dt>
                                      <dd>{value}</dd>
                                    </div>
                                  ))}
                                </dl>
                              </div>
                            )}
                          </td>
                          <td className="ua" data-label={t.userAgent}>
                            {row.userAgent}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </>
            );
          }}
        </Status>
      </section>
      <Erase t={t} onErased={reload} announce={announce} />
    </>
  );
}

function Erase({ t, onErased, announce }: { t: Messages; onErased: () => void; announce: Announce }) {
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
