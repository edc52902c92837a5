import type { Announce } from '../../announcer';
import { DownloadLink } from '../../components/DownloadLink';
import type { Messages } from '../../i18n';
import { FILTER_OF } from './tables';

/** The overview's CSV exports: where a table's CSV is (trafficCsv with the view's period and filters), and how a failure is read out. */
export interface CsvExport {
  href: (table: string) => string;
  announce: Announce;
}

/** A card's tables as CSV links (none: nothing), each named by its table where the card has several. */
export function CsvLinks({ t, title, tables, csv }: { t: Messages; title: string; tables: readonly string[]; csv: CsvExport }) {
  return (
    tables.length > 0 && (
      <span className="csv-links">
        {tables.map((table) => {
          const name = t.filterNames[FILTER_OF[table] ?? ''] ?? table;
          const what = tables.length > 1 ? `${title}: ${t.utm[table] ?? name}` : title;
          // the visible text first in the link's name, the card's title for a screen reader after it
          return (
            <DownloadLink key={table} t={t} announce={csv.announce} href={csv.href(table)} testId={`csv-${table}`}>
              {tables.length > 1 ? `${t.csv} ${name}` : t.csv}
              <span className="sr-only"> ({what})</span>
            </DownloadLink>
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
  csv,
  hint,
  children,
}: {
  t: Messages;
  id: string;
  title: string;
  tables: readonly string[];
  csv: CsvExport;
  hint?: string;
  children: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="card">
      <div className="card-head">
        <h2 id={id}>{title}</h2>
        <CsvLinks t={t} title={title} tables={tables} csv={csv} />
      </div>
      {hint && <p className="hint">{hint}</p>}
      {children}
    </section>
  );
}
