/** Longest state suffix value kept (protocol section 4, as the original heatmap client). */
export const MAX_STATE_LENGTH = 200;

/**
 * Classes the original heatmap client leaves out: purely numeric ones as jQuery 1.12.4's
 * `$.isNumeric` tells them (`(c - parseFloat(c) + 1) >= 0`: `7`, `1e3`, `+5`, `-5`, `0x1f`, not
 * `5px` or `Infinity`), ones with a character that would break its selector (`[ ] . : , =`) and
 * its report's own highlight markers.
 */
export function isOriginalSkippedClass(name: string): boolean {
  return +name - parseFloat(name) + 1 >= 0 || /[[\].:,=]/.test(name) || name === 'vs-highlight' || name === 'vs-pre-highlight';
}

/**
 * The `stable` selector mode (docs/protocol.md#selector-departures): classes that come and go with
 * state or time, or that the bundle adds. Leaving them out keeps a click's selector the same while
 * a menu, modal, sticky bar or lazy image changes state. Each entry is a class the libraries' own
 * scripts or Joomla's menus toggle (read in their sources; the Bootstrap 3/5 and UIkit 3 ones
 * exercised in test/browser/libraries.test.ts).
 */
const UNSTABLE_CLASS_PATTERNS: readonly RegExp[] = [
  /lazy/i, // lazy, lazyload, lazyloaded, pre-lazy, jch-lazyload...
  /^(pre-?)?load(ing|ed)$|[-_]load(ing|ed)$/i,
  // UIkit: toggled states, sticky, animations, and the `uk-*-page` classes (on html while a modal, offcanvas or lightbox is open)
  /^uk-(active|open|hover|focus|inview|scrollspy-inview|togglable|sticky|navbar-sticky|animation|transition|slide-|drag)/,
  /^uk-(drop-stack|[a-z-]+-dropbar)$/,
  /^uk-[a-z-]+-page$/,
  // Bootstrap 3/4/5, Joomla's menus (current, active, alias-parent-active) and templates
  /^(active|current|alias-parent-active|open|show|showing|hiding|shown|collapsing|collapsed|in|hover|focus|nav-hover|modal-open|modal-static|affix|affix-top|affix-bottom)$/,
  /^carousel-item-(next|prev|start|end)$/,
  /^(is|has|js)-/,
  /^(pagepulse|pp-|gdprlock)/, // ours
  /(^|[-_])(?=[a-z]*\d)(?=\d*[a-z])[a-z0-9]{6,}$/i, // generated hashes: css-1x2y3z, sc-a1b2c3
  /(^|[-_])\d{6,}$/, // jsx-2837462 (Joomla's item-101 stays)
];

/** Whether a class name is state or generated noise that a `stable` selector leaves out. */
export function isUnstableClass(name: string): boolean {
  return UNSTABLE_CLASS_PATTERNS.some((pattern) => pattern.test(name));
}

/** An element's classes as the original reads them; an SVG element's non-string className is none. */
export function classNames(element: Element): string[] {
  const text = (element as { className?: unknown }).className;
  if (typeof text !== 'string') return [];
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed ? collapsed.split(' ') : [];
}

/** One selector step's parts: the lower-case tag and the classes kept. */
interface Step {
  tag: string;
  classes: string[];
}

function stepOf(element: Element, stable: boolean): Step {
  return {
    tag: element.tagName.toLowerCase(),
    classes: classNames(element).filter((name) => !isOriginalSkippedClass(name) && !(stable && isUnstableClass(name))),
  };
}

/** Whether an element matches a step as a CSS compound selector `tag.c1.c2` would. */
function matchesStep(element: Element, step: Step): boolean {
  return element.tagName.toLowerCase() === step.tag && step.classes.every((name) => element.classList.contains(name));
}

/**
 * The heatmap selector of an element (docs/protocol.md#click-selector): steps from below `body` to
 * the element, `tag.class...` with `:nth-child(k)` only where the parent has more than one element
 * child matching the step, joined by `>`; prefixed with `body>` when that chain alone does not
 * match exactly this element. Empty for `body`, `html` and elements outside `body`. By default the
 * original's classes (the same selector as the original client); `stable` also leaves out the
 * state classes (isUnstableClass), in the steps and in the `:nth-child` decision.
 */
export function selectorFor(element: Element, stable = false, escape: (ident: string) => string = cssEscape): string {
  const doc = element.ownerDocument;
  const steps: string[] = [];
  let node: Element | null = element;
  for (; node && node !== doc.body && node !== doc.documentElement; node = node.parentElement) {
    const step = stepOf(node, stable);
    let text = step.tag + step.classes.map((name) => `.${escape(name)}`).join('');
    const parent: Element | null = node.parentElement;
    if (parent) {
      let matching = 0;
      let position = 0;
      for (let child: Element | null = parent.firstElementChild, k = 1; child; child = child.nextElementSibling, k++) {
        if (matchesStep(child, step)) matching++;
        if (child === node) position = k;
      }
      if (matching > 1) text += `:nth-child(${position})`;
    }
    steps.push(text);
  }
  if (node !== doc.body || steps.length === 0) return '';
  const selector = steps.reverse().join('>');
  return matchesOnly(doc, selector, element) ? selector : `body>${selector}`;
}

function matchesOnly(doc: Document, selector: string, element: Element): boolean {
  try {
    const found = doc.querySelectorAll(selector);
    return found.length === 1 && found[0] === element;
  } catch {
    return false;
  }
}

/** The state suffix: `:` and the state input's value (200 characters at most), or nothing. */
export function stateSuffix(value: string | null | undefined): string {
  return value ? `:${value.slice(0, MAX_STATE_LENGTH)}` : '';
}

/**
 * CSS.escape: every browser the bundle supports has it (Safari 10+); the unit suites' jsdom gets
 * Mathias Bynens' polyfill (`css.escape`) in its setup file, not in the bundle.
 */
export function cssEscape(ident: string): string {
  return CSS.escape(ident);
}
