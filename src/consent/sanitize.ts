/** Tags a category description may keep (protocol section 5); others are unwrapped or dropped. */
const ALLOWED = new Set(['div', 'p', 'span', 'strong', 'em', 'ul', 'ol', 'li', 'fieldset', 'legend', 'a', 'br']);
/** Elements whose content is never text for a reader: dropped with everything inside. */
const DROPPED = new Set([
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'embed',
  'noscript',
  'svg',
  'math',
  'head',
  'title',
  'meta',
  'link',
  'img',
  'video',
  'audio',
  'form',
  'input',
  'button',
  'select',
  'textarea',
]);
/** Bounds for a hostile fragment. */
const MAX_NODES = 2000;
const MAX_DEPTH = 32;

/** A node of the sanitized tree: text, or an allowed element with only safe attributes. */
export type SafeNode = string | { tag: string; className?: string; href?: string; children: SafeNode[] };

/**
 * Parse an HTML fragment inertly (DOMParser documents run no script and load nothing) and keep only
 * the allowlist: tags above, `class`, and `href` when it resolves to http(s). The result is data for
 * React to render as elements; no HTML string ever reaches the page.
 */
export function sanitizeFragment(html: string, baseUrl: string, parser: DOMParser = new DOMParser()): SafeNode[] {
  const body = parser.parseFromString(`<!doctype html><body>${html}`, 'text/html').body;
  let budget = MAX_NODES;
  const walk = (node: Node, depth: number): SafeNode[] => {
    if (--budget < 0 || depth > MAX_DEPTH) return [];
    if (node.nodeType === 3) return [node.nodeValue ?? ''];
    if (node.nodeType !== 1) return [];
    const element = node as Element;
    const tag = element.localName;
    const children = (): SafeNode[] => [...element.childNodes].flatMap((child) => walk(child, depth + 1));
    if (DROPPED.has(tag)) return [];
    if (!ALLOWED.has(tag)) return children();
    const out: { tag: string; className?: string; href?: string; children: SafeNode[] } = {
      tag,
      children: tag === 'br' ? [] : children(),
    };
    const className = element.getAttribute('class');
    if (className) out.className = className.slice(0, 200);
    if (tag === 'a') {
      const href = safeHref(element.getAttribute('href'), baseUrl);
      if (href) out.href = href;
    }
    return [out];
  };
  return [...body.childNodes].flatMap((child) => walk(child, 0));
}

/** An address a link may carry: http(s) after resolution, never javascript:, data: or the like. */
export function safeHref(href: string | null, baseUrl: string): string | null {
  if (!href) return null;
  try {
    const url = new URL(href.trim(), baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}
