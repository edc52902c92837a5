// How the clicks view names a stored click selector (docs/protocol.md#click-selector).

/**
 * The selector's last step with its state suffix (`li:nth-child(2)>a:open` gives `a:open`): what a
 * site owner recognises first. Steps are joined by `>` (the original's and ours), with spaces
 * around it in PagePulse's older selectors (` > `); an escaped `\>` in a class name and a `>` in the
 * state suffix (everything after the first colon that is neither escaped nor `:nth-child(k)`) are
 * not a join.
 */
export function lastStep(selector: string): string {
  const pattern = /\\[\s\S]|:nth-child\(\d+\)|(:)|(\s*>\s*)/g;
  let start = 0;
  for (let match = pattern.exec(selector); match; match = pattern.exec(selector)) {
    if (match[1]) break; // the state suffix: its `>` are a visitor's value
    if (match[2] !== undefined) start = match.index + match[2].length;
  }
  return selector.slice(start).trim() || selector;
}
