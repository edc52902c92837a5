/** Longest state suffix kept (protocol section 4). */
export const MAX_STATE_LENGTH = 64;

/**
 * Classes that come and go with state or time, or that the bundle adds: leaving them out keeps a
 * click's selector the same before and after lazy-loading, hover, UIkit toggles or our own UI.
 */
const UNSTABLE_CLASS_PATTERNS: readonly RegExp[] = [
  /lazy/i, // lazy, lazyload, lazyloaded, pre-lazy, jch-lazyload...
  /^(pre-?)?load(ing|ed)$|[-_]load(ing|ed)$/i,
  /^uk-(active|open|hover|focus|inview|first-column|grid-margin|grid-stack|navbar-transparent|scrollspy)/,
  /^uk-(sticky|animation|transition)/,
  /^(active|open|hover|focus|focused|current|selected|show|shown|visible|hidden|in)$/,
  /^(is|has|js)-/,
  /^(pagepulse|pp-|gdprlock)/, // ours
  /(^|[-_])(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{5,}$/i, // generated hashes: css-1x2y3z, sc-a1b2c3
  /(^|[-_])\d{4,}$/, // jsx-2837462
];

/** Whether a class name is state or generated noise that must not enter a selector. */
export function isUnstableClass(name: string): boolean {
  return UNSTABLE_CLASS_PATTERNS.some((pattern) => pattern.test(name));
}

/**
 * The structural selector of an element, from `html` down: each step is the tag, its stable
 * classes and `:nth-child(k)`, joined by ` > `. The nth-child chain pins exactly one element in
 * its document; the classes make the selector readable and robust for the heatmap.
 */
export function selectorFor(element: Element, escape: (ident: string) => string = cssEscape): string {
  const steps: string[] = [];
  for (let node: Element | null = element; node; node = node.parentElement) {
    let step = escape(node.localName);
    const classes = node.classList;
    for (let i = 0; i < classes.length; i++) {
      const name = classes[i]!;
      if (!isUnstableClass(name)) step += `.${escape(name)}`;
    }
    if (node.parentElement) step += `:nth-child(${childIndex(node)})`;
    steps.push(step);
  }
  return steps.reverse().join(' > ');
}

/** The `::state` suffix from the state input's value: `[A-Za-z0-9_-]` only, 64 at most. */
export function stateSuffix(value: string | null | undefined): string {
  const cleaned = (value ?? '').replace(/[^A-Za-z0-9_-]/g, '').slice(0, MAX_STATE_LENGTH);
  return cleaned ? `::${cleaned}` : '';
}

function childIndex(node: Element): number {
  let index = 1;
  for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index++;
  return index;
}

/** CSS.escape where the environment has it (browsers, happy-dom), else the spec's algorithm. */
export function cssEscape(ident: string): string {
  const native = (globalThis as { CSS?: { escape?: (s: string) => string } }).CSS?.escape;
  return native ? native(ident) : escapeIdent(ident);
}

/** CSSOM's serialize-an-identifier, for DOMs without CSS.escape (jsdom). */
export function escapeIdent(ident: string): string {
  let out = '';
  for (let i = 0; i < ident.length; i++) {
    const code = ident.charCodeAt(i);
    const char = ident.charAt(i);
    if (code === 0) out += '\uFFFD';
    else if ((code >= 0x1 && code <= 0x1f) || code === 0x7f) out += `\\${code.toString(16)} `;
    else if (i === 0 && code >= 0x30 && code <= 0x39) out += `\\${code.toString(16)} `;
    else if (i === 1 && code >= 0x30 && code <= 0x39 && ident.charCodeAt(0) === 0x2d) out += `\\${code.toString(16)} `;
    else if (i === 0 && ident.length === 1 && code === 0x2d) out += `\\${char}`;
    else if (code >= 0x80 || code === 0x2d || code === 0x5f || /[0-9A-Za-z]/.test(char)) out += char;
    else out += `\\${char}`;
  }
  return out;
}
