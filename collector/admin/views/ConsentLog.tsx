import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { Announce } from '../announcer';
import { getJson, type ConsentLog as Log } from '../api';
import { useFieldError } from '../components/FieldError';
import { PeriodNote } from '../components/PeriodPicker';
import { Status } from '../components/Status';
import { errorText } from '../errors';
import type { Messages } from '../i18n';
import { periodParams } from '../period';
import { useData } from '../useData';
import { Erase } from './consent-log/Erase';
import { LogTable } from './consent-log/LogTable';
import { NO_FILTER, SEARCH_FIELDS, SearchForm, searchRefused, type Filter } from './consent-log/SearchForm';
import type { UnfilteredViewProps } from './props';

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
 * ID, CSV export of the same filter (not offered while the log shows the search refused), erasure. A search, a reset, a click on a pseudonym or ID and
 * "load older" announce how many records they found (`announce`, the app's live region). The form,
 * the table and the erasure are in views/consent-log/.
 */
export function ConsentLog({ t, lang, period, filtered = false, announce }: UnfilteredViewProps & { announce: Announce }) {
  const [filter, setFilter] = useState<Filter>(NO_FILTER);
  const [draft, setDraft] = useState<Filter>(NO_FILTER);
  // a search value the collector refused (past the pattern: an older browser, a script): marked, described, focused
  const invalid = useFieldError(SEARCH_FIELDS);
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
    // a failed read says so itself (Status: an alert); a refused search field is marked too
    if (loaded.state === 'ok') announce(countText(t, loaded.data));
    else invalid.refused(loaded.error);
  }, [asked, busy, loaded]);
  const older = () => {
    const next = Math.min(limit + LOG_STEP, LOG_MAX);
    toCsv.current = next === LOG_MAX;
    setRows({ scope, limit: next });
    setAsked((n) => n + 1);
  };
  // the export of the shown search; none while the log shows a refusal of the search (the collector's, or
  // the form's own check): the refused search would be refused again, and the one before is not what is shown
  const refusedShown = invalid.unsent !== null || (loaded.state === 'error' && invalid.named(loaded.error) !== undefined);
  const csv = refusedShown
    ? null
    : `/admin/consents.csv?${new URLSearchParams(Object.entries(query).filter(([, v]) => v !== '')).toString()}`;

  const search = (event: FormEvent) => {
    event.preventDefault();
    // the form's own check first (noValidate: no bubble of the browser's): marked, and said below as the collector's refusal is; nothing asked
    if (invalid.checked() !== undefined) return;
    invalid.clear();
    setFilter({ ...draft, visitor: draft.visitor.trim().toLowerCase(), consent: draft.consent.trim() });
    // the same search again: from the newest records again
    setRows({ scope, limit: LOG_STEP });
    setAsked((n) => n + 1);
  };
  const reset = () => {
    invalid.clear();
    setDraft(NO_FILTER);
    setFilter(NO_FILTER);
    setAsked((n) => n + 1);
  };
  const only = (visitor: string) => {
    invalid.clear('visitor');
    setDraft({ ...draft, visitor });
    setFilter({ ...filter, visitor });
    setAsked((n) => n + 1);
  };
  const onlyConsent = (consent: string) => {
    invalid.clear('consent');
    setDraft({ ...draft, consent });
    setFilter({ ...filter, consent });
    setAsked((n) => n + 1);
  };

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
      <SearchForm
        t={t}
        draft={draft}
        onDraft={setDraft}
        onSearch={search}
        onReset={reset}
        csv={csv}
        csvLink={csvLink}
        announce={announce}
        invalid={invalid}
      />
      <section className="card" aria-labelledby="log-title">
        <h2 id="log-title">{t.logTitle}</h2>
        {/* a search field at fault by its own check: the log's alert names it, as after the collector's refusal, but says
            the search was not made (nothing was asked, so nothing failed to load) */}
        {invalid.unsent ? (
          <p role="alert" className="error">
            {t.searchNotMade} {searchRefused(t, invalid.unsent)}
          </p>
        ) : (
          <Status
            loaded={loaded}
            t={t}
            busy={busy}
            failure={(t, error) => searchRefused(t, invalid.named(error)) ?? errorText(t, error)}
          >
            {(data) => {
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
                  <LogTable
                    t={t}
                    lang={lang}
                    timeZone={data.timeZone}
                    consents={data.consents}
                    only={only}
                    onlyConsent={onlyConsent}
                  />
                </>
              );
            }}
          </Status>
        )}
      </section>
      <Erase t={t} onErased={reload} announce={announce} />
    </>
  );
}
