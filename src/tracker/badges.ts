/** The statistics module's badges (`#jes_mod span.badge[data-bind]`); ids may repeat on CMS pages. */
const BADGE_SELECTOR = '[id="jes_mod"] span.badge[data-bind]';

/**
 * `module_available`: the original counts `$('#jes_mod').length`, whose id fast path
 * (getElementById) finds at most one element, so a repeated module still gives 1.
 */
export function moduleAvailable(doc: Document): 0 | 1 {
  return doc.getElementById('jes_mod') ? 1 : 0;
}

/**
 * Set each badge whose `data-bind` key the server sent. Keys are compared as strings, never put
 * into a selector, and texts are set as text: a hostile answer can neither break the query nor
 * inject markup. Unchanged texts are not written, so a steady count costs no DOM mutation.
 */
export function updateBadges(doc: Document, binds: ReadonlyArray<readonly [string, string]>): void {
  if (binds.length === 0) return;
  const texts = new Map(binds);
  for (const badge of doc.querySelectorAll(BADGE_SELECTOR)) {
    const text = texts.get(badge.getAttribute('data-bind') ?? '');
    if (text !== undefined && badge.textContent !== text) badge.textContent = text;
  }
}
