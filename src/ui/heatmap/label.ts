// What the overlay writes at a dot: the element's text as a person reads it, short.

/** Longest label drawn at a dot (characters), an ellipsis after it. */
const MAX_LABEL = 28;

/**
 * The element's name in a few words: its accessible name where the page gives one (`aria-label`,
 * `aria-labelledby`, a form field's `<label>`, a button input's value, `alt`, `title`, a
 * placeholder), else its text (`textContent`, never markup), whitespace collapsed and cut to
 * MAX_LABEL characters; the tag name when it has none (an icon without a name). A text field's
 * value is never read (it is what someone typed).
 */
export function labelOf(element: Element): string {
  const doc = element.ownerDocument;
  const attr = (name: string): string => element.getAttribute(name) ?? '';
  let text = attr('aria-label');
  if (!text.trim())
    text = attr('aria-labelledby')
      .split(/\s+/)
      .map((id) => (id && doc.getElementById(id)?.textContent) || '')
      .join(' ');
  const field = element as HTMLInputElement;
  if (!text.trim() && field.labels?.length) text = field.labels[0]!.textContent ?? '';
  if (!text.trim() && element.localName === 'input' && /^(button|submit|reset)$/.test(field.type)) text = field.value;
  if (!text.trim()) text = element.textContent ?? '';
  if (!text.trim())
    text = attr('alt') || element.querySelector('img[alt]')?.getAttribute('alt') || attr('title') || attr('placeholder');
  text = text.replace(/\s+/g, ' ').trim();
  if (!text) return element.localName;
  return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1).trimEnd()}\u2026` : text;
}
