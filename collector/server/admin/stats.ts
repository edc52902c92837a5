/** One cookie-consent log record: category null is the generic choice. */
export interface CategoryRecord {
  session: string;
  category: number | null;
  granted: boolean;
  at: number;
}

/** One bucket (a day, an hour or a month) of consent statistics: how many visitors decided, and the share (0..1) allowing each category. */
export interface DayShares {
  day: string;
  visitors: number;
  shares: Record<'1' | '2' | '3' | '4', number>;
}

/**
 * The widget logs the generic choice on every decision but a category only when it CHANGED from the
 * opt-out default (protocol section 5): before any record, Notwendig and Präferenzen are on,
 * Statistiken and Marketing off. A visitor's state is that default overlaid with their records.
 */
const DEFAULT_STATE: Record<number, boolean> = { 1: true, 2: true, 3: false, 4: false };

/**
 * Per bucket (contiguous half-open ranges, oldest first): the visitors who logged a decision in it,
 * and for each category the share of them whose state at the bucket's end allowed it. `records`
 * must be sorted by time and may start before the first bucket (earlier choices carry over).
 */
export function consentShares(
  records: readonly CategoryRecord[],
  buckets: ReadonlyArray<{ start: number; end: number }>,
): Array<Omit<DayShares, 'day'>> {
  const state = new Map<string, Record<number, boolean>>();
  const out: Array<Omit<DayShares, 'day'>> = [];
  let i = 0;
  for (const { start, end } of buckets) {
    const deciders = new Set<string>();
    for (; i < records.length && records[i]!.at < end; i++) {
      const r = records[i]!;
      const current = state.get(r.session) ?? { ...DEFAULT_STATE };
      state.set(r.session, current);
      if (r.category !== null) current[r.category] = r.granted;
      if (r.at >= start) deciders.add(r.session);
    }
    const share = (category: number): number =>
      deciders.size === 0 ? 0 : [...deciders].filter((s) => state.get(s)![category]).length / deciders.size;
    out.push({ visitors: deciders.size, shares: { 1: share(1), 2: share(2), 3: share(3), 4: share(4) } });
  }
  return out;
}
