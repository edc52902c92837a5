import type { FormEvent, RefObject } from 'react';
import type { Announce } from '../../announcer';
import { DownloadLink } from '../../components/DownloadLink';
import type { Messages } from '../../i18n';
import { CONSENT_ID, PSEUDONYM } from './ids';

/** The log's own filter; its time range is the period picker's. */
export interface Filter {
  visitor: string;
  consent: string;
}
/** No search: every record of the period. */
export const NO_FILTER: Filter = { visitor: '', consent: '' };

/** The log's search by pseudonym or consent ID (`draft`, as typed), its reset and the CSV export of the shown search. */
export function SearchForm({
  t,
  draft,
  onDraft,
  onSearch,
  onReset,
  csv,
  csvLink,
  announce,
}: {
  t: Messages;
  draft: Filter;
  onDraft: (draft: Filter) => void;
  onSearch: (event: FormEvent) => void;
  onReset: () => void;
  csv: string;
  csvLink: RefObject<HTMLAnchorElement | null>;
  /** Reads out a failed export (the app's live region). */
  announce: Announce;
}) {
  return (
    <section className="card" aria-labelledby="log-filter">
      <h2 id="log-filter">{t.search}</h2>
      <form className="filters" onSubmit={onSearch} role="search">
        <label>
          {t.pseudonym}
          <input
            type="text"
            value={draft.visitor}
            pattern={PSEUDONYM}
            placeholder={t.pseudonymHint}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => onDraft({ ...draft, visitor: e.target.value })}
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
            onChange={(e) => onDraft({ ...draft, consent: e.target.value })}
          />
        </label>
        <div className="buttons">
          <button type="submit">{t.search}</button>
          <button type="button" className="secondary" onClick={onReset}>
            {t.reset}
          </button>
          <DownloadLink t={t} announce={announce} className="button secondary" href={csv} testId="csv-link" linkRef={csvLink}>
            {t.exportCsv}
          </DownloadLink>
        </div>
      </form>
    </section>
  );
}
