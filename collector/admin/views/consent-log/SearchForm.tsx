import type { FormEvent, RefObject } from 'react';
import type { Announce } from '../../announcer';
import { DownloadLink } from '../../components/DownloadLink';
import { MarkedField, type FieldErrors } from '../../components/FieldError';
import type { Messages } from '../../i18n';
import { CONSENT_ID, PSEUDONYM } from './ids';

/** The log's own filter; its time range is the period picker's. */
export interface Filter {
  visitor: string;
  consent: string;
}
/** No search: every record of the period. */
export const NO_FILTER: Filter = { visitor: '', consent: '' };

/** The search's fields: the query parameters they are sent as (and the collector's refusal names). */
export const SEARCH_FIELDS = ['visitor', 'consent'] as const satisfies readonly (keyof Filter)[];
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** Each search field's input, in SEARCH_FIELDS' order: its label, pattern, placeholder and message while marked (keys of the texts). */
const SEARCH = [
  { field: 'visitor', label: 'pseudonym', pattern: PSEUDONYM, hint: 'pseudonymHint', message: 'pseudonymInvalid' },
  { field: 'consent', label: 'consentId', pattern: CONSENT_ID, hint: 'consentIdHint', message: 'consentIdInvalid' },
] as const satisfies readonly {
  field: SearchField;
  label: keyof Messages;
  pattern: string;
  hint: keyof Messages;
  message: keyof Messages;
}[];

/** The log's failure for a search field the collector refused, naming the field; undefined for any other. */
export function searchRefused(t: Messages, field: SearchField | undefined): string | undefined {
  if (field === undefined) return undefined;
  return field === 'visitor' ? t.pseudonymFailed(t.pseudonym) : t.consentIdFailed(t.consentId);
}

/** The log's search by pseudonym or consent ID (`draft`, as typed), its reset and the CSV export of the shown search (`csv`; null: none). */
export function SearchForm({
  t,
  draft,
  onDraft,
  onSearch,
  onReset,
  csv,
  csvLink,
  announce,
  invalid,
}: {
  t: Messages;
  draft: Filter;
  onDraft: (draft: Filter) => void;
  onSearch: (event: FormEvent) => void;
  onReset: () => void;
  /** The export's address; null while the log shows the search refused (no export of a search it does not show). */
  csv: string | null;
  csvLink: RefObject<HTMLAnchorElement | null>;
  /** Reads out a failed export (the app's live region). */
  announce: Announce;
  /** The field the collector refused (the log's load, in the view): marked, described, focused; cleared as its value changes. */
  invalid: FieldErrors<SearchField>;
}) {
  const change = (field: SearchField, value: string) => {
    onDraft({ ...draft, [field]: value });
    invalid.clear(field);
  };
  return (
    <section className="card" aria-labelledby="log-filter">
      <h2 id="log-filter">{t.search}</h2>
      <form className="filters" onSubmit={onSearch} role="search" noValidate>
        {SEARCH.map(({ field, label, pattern, hint, message }) => (
          <MarkedField
            key={field}
            invalid={invalid}
            field={field}
            id={`search-${field}-error`}
            label={t[label]}
            message={() => t[message]}
          >
            {(marks) => (
              <input
                {...marks}
                type="text"
                value={draft[field]}
                pattern={pattern}
                placeholder={t[hint]}
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => change(field, e.target.value)}
              />
            )}
          </MarkedField>
        ))}
        <div className="buttons">
          <button type="submit">{t.search}</button>
          <button type="button" className="secondary" onClick={onReset}>
            {t.reset}
          </button>
          {csv !== null && (
            <DownloadLink t={t} announce={announce} className="button secondary" href={csv} testId="csv-link" linkRef={csvLink}>
              {t.exportCsv}
            </DownloadLink>
          )}
        </div>
      </form>
    </section>
  );
}
