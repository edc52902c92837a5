import { Fragment } from 'react';
import type { Row } from '../api';
import type { Lang, Messages } from '../i18n';

/**
 * A label with line-break opportunities after `/`, `?` and `&`: an address wraps between its parts,
 * not inside a word (`<wbr>` elements; the text itself stays text).
 */
function breakable(text: string): React.ReactNode {
  const parts = text.split(/(?<=[/?&])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && <wbr />}
    </Fragment>
  ));
}

/**
 * One breakdown as a table: each row's label, its figure in the period and in the previous one,
 * and optionally its share of the period's total as a meter (the rows' own bar chart: a meter is
 * drawn by the browser, no inline style). Text only: labels come from visitors' requests. On a
 * phone each row becomes a card of labelled cells (`.stack`).
 */
export function Breakdown({
  t,
  lang,
  rows,
  labelHeader,
  countHeader,
  format,
  labelOf = (row) => row.label,
  share = false,
  extra,
  testId,
  titleOf,
  onPick,
}: {
  t: Messages;
  lang: Lang;
  rows: readonly Row[];
  labelHeader: string;
  countHeader: string;
  format: (n: number) => string;
  labelOf?: (row: Row) => string;
  share?: boolean;
  /** One more column after the figures: its header and its cell per row. */
  extra?: { header: string; cell: (row: Row) => string };
  testId?: string;
  /** The whole label where the row shows a short one (a page's address beside its path). */
  titleOf?: (row: Row) => string;
  /** A click on a row's label: filter every card by it. */
  onPick?: (row: Row) => void;
}) {
  if (rows.length === 0) return <p>{t.none}</p>;
  const total = rows.reduce((sum, row) => sum + row.current, 0);
  const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
  return (
    <table className="breakdown stack" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{labelHeader}</th>
          <th scope="col" className="num">
            {countHeader}
          </th>
          <th scope="col" className="num">
            {t.previous}
          </th>
          {extra && (
            <th scope="col" className="num">
              {extra.header}
            </th>
          )}
          {share && <th scope="col">{t.share}</th>}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <td className="url" data-label={labelHeader} title={titleOf?.(row)}>
              {onPick ? (
                // named by what it does, the visible label inside (WCAG 2.5.3); a page's whole address on hover
                <button
                  type="button"
                  className="link"
                  onClick={() => onPick(row)}
                  aria-label={t.filterBy(labelOf(row))}
                  title={titleOf?.(row) ?? t.filterBy(labelOf(row))}
                >
                  {breakable(labelOf(row))}
                </button>
              ) : (
                breakable(labelOf(row))
              )}
            </td>
            <td className="num" data-label={countHeader}>
              {format(row.current)}
            </td>
            <td className="num prev" data-label={t.previous}>
              {format(row.previous)}
            </td>
            {extra && (
              <td className="num" data-label={extra.header}>
                {extra.cell(row)}
              </td>
            )}
            {share && (
              <td className="share" data-label={t.share}>
                <span>
                  <meter min={0} max={1} value={total ? row.current / total : 0} aria-label={`${t.share} ${labelOf(row)}`} />
                  <span>{percent.format(total ? row.current / total : 0)}</span>
                </span>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
