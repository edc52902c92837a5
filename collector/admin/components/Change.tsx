import type { Lang, Messages } from '../i18n';

/**
 * The change of a figure against the previous period, beside it: an arrow, the sign and the change
 * in per cent (for a rate, in percentage points), with words for screen readers (the arrow is not
 * read, and colour is not the only cue; the colour says good or bad news, so a rising bounce rate
 * is red). "new" when the previous figure was 0.
 */
export function Change({
  t,
  lang,
  current,
  previous,
  points = false,
  wasNone = previous === 0,
  lowerIsBetter = false,
}: {
  t: Messages;
  lang: Lang;
  current: number;
  previous: number;
  /** A rate 0..1: the change in percentage points. */
  points?: boolean;
  /** Nothing to compare with (for a rate: no visits before). */
  wasNone?: boolean;
  /** A figure that is better when it falls (the bounce rate): its rise is coloured as bad news. */
  lowerIsBetter?: boolean;
}) {
  if (wasNone)
    return current === 0 ? (
      <Shown kind="same" arrow="=" words={t.change.same} text="" />
    ) : (
      <Shown kind="new" arrow="" words="" text={t.change.new} />
    );
  const delta = points ? (current - previous) * 100 : (current - previous) / previous;
  const format = points
    ? (n: number) =>
        `${new Intl.NumberFormat(lang, { maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(n)} ${t.points}`
    : (n: number) =>
        new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(n);
  const text = format(delta);
  // a change too small to show in whole units reads as unchanged
  if (/^[^1-9]*$/.test(text)) return <Shown kind="same" arrow="=" words={t.change.same} text="" />;
  const up = delta > 0;
  return (
    <Shown
      kind={`${up ? 'up' : 'down'} ${up !== lowerIsBetter ? 'good' : 'bad'}`}
      arrow={up ? '▲' : '▼'}
      words={`${up ? t.change.up : t.change.down}${points ? ` (${t.pointsLong})` : ''}`}
      text={text}
    />
  );
}

function Shown({ kind, arrow, words, text }: { kind: string; arrow: string; words: string; text: string }) {
  return (
    <span className={`change ${kind}`} data-testid="change">
      {arrow && <span aria-hidden="true">{arrow} </span>}
      {words && <span className="sr-only">{words} </span>}
      {text}
    </span>
  );
}
