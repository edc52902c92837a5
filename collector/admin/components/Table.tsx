/** One column of a plain table: its header text, and `num` for right-aligned figures. */
export interface Column {
  label: string;
  num?: boolean;
  /** Class of this column's body cells when it is not a figure (for example `url`). */
  className?: string;
}

/** A plain table with a header row: one row per item, `cells(item)` in column order. */
export function Table<T>({
  columns,
  items,
  rowKey,
  cells,
  testId,
  stack = false,
}: {
  columns: readonly Column[];
  items: readonly T[];
  rowKey: (item: T) => string;
  cells: (item: T) => React.ReactNode[];
  testId?: string;
  /** On a phone each row a card of labelled cells (as the breakdowns): no table wider than the screen. */
  stack?: boolean;
}) {
  const cellClass = (c: Column) => (c.num ? 'num' : c.className);
  return (
    <table data-testid={testId} className={stack ? 'stack' : undefined}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col" className={c.num ? 'num' : undefined}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={rowKey(item)}>
            {cells(item).map((cell, i) => (
              <td key={columns[i]!.label} className={cellClass(columns[i]!)} data-label={stack ? columns[i]!.label : undefined}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
