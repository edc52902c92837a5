import type { Config } from '../config';
import { categoryOf } from './rules';
import { claimOf, snippetOf, type Claim } from './services';

/** A claim on an element: held while its category (or service) is not allowed. */
export interface ElementClaim extends Claim {
  /** com_gdpr's server-side blocking (`gdprlock`): released by the server after a reload, not by us. */
  server?: true;
}

/**
 * Script types a browser runs (an empty one is JavaScript, and every JavaScript MIME type essence of
 * the HTML standard: `text/x-javascript`, `application/x-ecmascript`, `text/javascript1.5`,
 * `text/jscript`...): JSON, templates and our text/plain are data.
 */
const RUNNABLE = /^\s*((text|application)\/(x-)?(java|ecma)script|text\/(javascript1\.[0-5]|jscript|livescript)|module)?\s*$/i;

/** An element's address (`data-src` first: the blocked markup keeps it there) as host and path. */
export function addressOf(element: Element, base: string): URL | null {
  const address = element.getAttribute('data-src') ?? element.getAttribute('src');
  if (!address) return null;
  try {
    const url = new URL(address, base);
    return /^https?:$/.test(url.protocol) ? url : null;
  } catch {
    return null;
  }
}

/**
 * Who claims an element (docs/protocol.md#5c): com_gdpr's server-side blocking; an explicit
 * `data-category` (1, Notwendig, is never held); a `<script src>` or `<iframe src>`/`data-src`
 * whose address a service or a category's domains cover; an inline script that holds a service's
 * install snippet. Everything else is the page's own and is left alone.
 */
export function claimElement(config: Config, element: Element, base: string): ElementClaim | null {
  const marked = categoryOf(element.getAttribute('data-category'));
  const src = element.getAttribute('src');
  const url = addressOf(element, base);
  const byAddress = claimOf(config, element.getAttribute('data-service'), url?.hostname ?? '', url?.pathname ?? '');
  // the blocked markup of a script: held by its category (1 included: released at once)
  if (element.localName === 'script' && element.getAttribute('type') === 'text/plain')
    return marked ? { category: marked, service: byAddress?.service ?? null } : null;
  if (marked === 1) return null;
  if (element.getAttribute('data-source') === 'gdprlock' || (src && src.includes('gdprlock')))
    return { category: marked ?? 4, service: null, server: true };
  let claim: Claim | null = byAddress;
  if (element.localName === 'script') {
    if (!RUNNABLE.test(element.getAttribute('type') ?? '')) return null;
    if (!src) {
      const snippet = snippetOf(config, element.textContent ?? '');
      claim = byAddress ?? (snippet ? { category: config.services[snippet]!.category, service: snippet } : null);
    }
  } else if (!url) return null; // an iframe without an address loads nothing
  return marked ? { category: marked, service: claim?.service ?? null } : claim;
}
