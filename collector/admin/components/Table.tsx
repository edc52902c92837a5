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
}: {
  columns: readonly Column[];
  items: readonly T[];
  rowKey: (item: T) => string;
  cells: (item: T) => React.ReactNode[];
  testId?: string;
}) {
  const cellClass = (c: Column) => (c.num ? 'num' : c.className);
  return (
    <table data-testid={testId}>
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
              <td key={columns[i]!.label} className={cellClass(columns[i]!)}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
