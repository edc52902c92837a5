import type { Messages } from '../../i18n';
import { FILTER_OF } from './tables';

/** Where a table's CSV is (trafficCsv with the view's period and filters). */
export type CsvHref = (table: string) => string;

/** A card's tables as CSV links (none: nothing), each named by its table where the card has several. */
export function CsvLinks({ t, title, tables, href }: { t: Messages; title: string; tables: readonly string[]; href: CsvHref }) {
  return (
    tables.length > 0 && (
      <span className="csv-links">
        {tables.map((table) => {
          const name = t.filterNames[FILTER_OF[table] ?? ''] ?? table;
          const what = tables.length > 1 ? `${title}: ${t.utm[table] ?? name}` : title;
          // the visible text first in the link's name, the card's title for a screen reader after it
          return (
            <a key={table} href={href(table)} download data-testid={`csv-${table}`}>
              {tables.length > 1 ? `${t.csv} ${name}` : t.csv}
              <span className="sr-only"> ({what})</span>
            </a>
          );
        })}
      </span>
    )
  );
}

/** One card of the overview's grid: its title (`id` labels the section) with its tables' CSV links, a hint, the body. */
export function Card({
  t,
  id,
  title,
  tables,
  href,
  hint,
  children,
}: {
  t: Messages;
  id: string;
  title: string;
  tables: readonly string[];
  href: CsvHref;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card">
      <div className="card-head">
        <h2 id={id}>{title}</h2>
        <CsvLinks t={t} title={title} tables={tables} href={href} />
      </div>
      {hint && <p className="hint">{hint}</p>}
      {children}
    </section>
  );
}
