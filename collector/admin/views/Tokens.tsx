import { useState, type FormEvent } from 'react';
import type { Announce } from '../announcer';
import { getJson, postForm, type ApiTokens, type NewApiToken } from '../api';
import { MarkedField, useFieldError } from '../components/FieldError';
import { Result, useResult } from '../components/Result';
import { Status } from '../components/Status';
import { Table } from '../components/Table';
import type { Lang, Messages } from '../i18n';
import { useData } from '../useData';

/** The form's one field (`field` name of the collector's refusal). */
const NAME = ['name'] as const;

/**
 * The read-only stats API's tokens: make one with a name (the token is shown this once: only its
 * SHA-256 is stored), list them by name and first characters, revoke one (docs/collector.md "Stats API").
 */
export function Tokens({ t, lang, zone, announce }: { t: Messages; lang: Lang; zone: string | null; announce: Announce }) {
  const [list, reload] = useData(() => getJson<ApiTokens>('tokens'), []);
  const [name, setName] = useState('');
  const [made, setMade] = useState<NewApiToken | null>(null);
  const result = useResult(t, announce);
  // a name the collector refused (blank once trimmed, a control character): marked, described, focused
  const invalid = useFieldError(NAME);
  // on the site's clock, as the consent log's times (the browser's until the zone is known)
  const time = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'short', timeZone: zone ?? undefined });
  const when = (iso: string | null) => (iso === null ? '–' : time.format(new Date(iso)));
  // not async: a form handler's returned promise would be dropped by React; the chain handles both ends
  const make = (event: FormEvent): void => {
    event.preventDefault();
    // the form's own check first (noValidate: no bubble of the browser's), said as the collector's refusal is
    if (invalid.checked() !== undefined) return refused();
    invalid.clear();
    postForm<NewApiToken>('tokens', { name: name.trim() }).then(
      (token) => {
        setMade(token);
        setName('');
        // the token itself is shown, not read out: the announcement says where it is
        result.done((t) => t.tokens.madeDone(token.name));
        reload();
      },
      (error: unknown) => {
        if (invalid.refused(error) === undefined) return result.failed(error);
        refused();
      },
    );
  };
  /** The result for the name at fault, naming it. */
  const refused = () => result.refused((t) => `${t.actionFailed} ${t.tokens.nameFailed(t.tokens.name)}`);
  const revoke = (id: number, tokenName: string): void => {
    if (!window.confirm(t.tokens.revokeConfirm(tokenName))) return;
    postForm('tokens/revoke', { id: String(id) }).then(
      () => {
        result.done((t) => t.tokens.revokeDone(tokenName));
        reload();
      },
      (error: unknown) => result.failed(error),
    );
  };
  return (
    <section className="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">{t.tokens.title}</h2>
      <p className="hint">{t.tokens.hint}</p>
      <form className="filters" onSubmit={make} noValidate>
        <MarkedField
          invalid={invalid}
          field="name"
          id="token-name-error"
          label={t.tokens.name}
          message={() => t.tokens.nameInvalid}
        >
          {(marks) => (
            <input
              {...marks}
              type="text"
              required
              maxLength={100}
              value={name}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                invalid.clear();
              }}
            />
          )}
        </MarkedField>
        <div className="buttons">
          <button type="submit">{t.tokens.make}</button>
        </div>
      </form>
      <Result outcome={result.outcome} t={t} testId="tokens-result" />
      {made && (
        <p data-testid="new-token">
          {t.tokens.shownOnce(made.name)} <code className="token">{made.token}</code>
        </p>
      )}
      <Status loaded={list} t={t}>
        {(data) =>
          data.tokens.length === 0 ? (
            <p>{t.tokens.none}</p>
          ) : (
            <Table
              testId="tokens"
              stack
              columns={[
                { label: t.tokens.name },
                { label: t.tokens.prefix },
                { label: t.tokens.created },
                { label: t.tokens.lastUsed },
                { label: t.tokens.state },
              ]}
              items={data.tokens}
              rowKey={(token) => String(token.id)}
              cells={(token) => [
                token.name,
                <code key="prefix">{token.prefix}…</code>,
                when(token.createdAt),
                when(token.lastUsedAt),
                token.revokedAt ? (
                  `${t.tokens.revoked} ${when(token.revokedAt)}`
                ) : (
                  <button key="revoke" type="button" className="secondary" onClick={() => revoke(token.id, token.name)}>
                    {t.tokens.revoke}
                    <span className="sr-only"> ({token.name})</span>
                  </button>
                ),
              ]}
            />
          )
        }
      </Status>
    </section>
  );
}
