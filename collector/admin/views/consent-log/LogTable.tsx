import type { ConsentEntry } from '../../api';
import type { Lang, Messages } from '../../i18n';

/**
 * The log's records as a table (a card of labelled cells each on a phone, `.stack`), times on the
 * site's clock (`timeZone`). A click on a pseudonym or consent ID searches for it.
 */
export function LogTable({
  t,
  lang,
  timeZone,
  consents,
  only,
  onlyConsent,
}: {
  t: Messages;
  lang: Lang;
  timeZone: string;
  consents: readonly ConsentEntry[];
  only: (visitor: string) => void;
  onlyConsent: (consent: string) => void;
}) {
  const time = new Intl.DateTimeFormat(lang, { dateStyle: 'short', timeStyle: 'medium', timeZone });
  const choice = (row: ConsentEntry): string =>
    row.kind === 'form' ? (row.deletedAt ? t.withdrawn : t.given) : row.granted ? t.allow : t.deny;
  return (
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
          {consents.map((row) => (
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
  );
}
