import type { CategoryId, Config } from '../config';
import type { ConsentStore, Logger } from '../context';
import type { Messages } from '../i18n';
import { settle } from '../platform/guard';
import type { Lifetime } from '../platform/lifetime';
import type { InsertionWatch } from '../platform/watch';
import { addressOf, claimElement, type ElementClaim } from './claim';
import { consentModeBridge } from './gcm';
import type { Categories } from './store';
import type { Claim } from './services';

/** Every element a claim can fall on: scripts, iframes and com_gdpr's server-blocked markup. */
const WATCHED = 'script,iframe,[data-source="gdprlock"],[src*="gdprlock"]';

/** A placeholder's buttons: a service's "load once" and "always allow", else "open the settings". */
export interface PlaceholderActions {
  once(): void;
  always(): void;
  settings(): void;
}

/**
 * Puts a placeholder before a blocked element (its category and service as claimed, its size and
 * address read from it) and returns it (ui/consent/placeholder.ts, handed in by main.ts).
 */
export type PlaceholderPort = (target: Element, claim: Claim, actions: PlaceholderActions) => Element;

/** What the blocker needs. */
export interface BlockerDeps {
  doc: Document;
  win: Window;
  lifetime: Lifetime;
  config: Config;
  t: Messages;
  log: Logger;
  debug: { add(title: string, text: string): void };
  watch: InsertionWatch;
  /** Whether a category is on now. */
  allows(id: CategoryId): boolean;
  /** The services allowed on their own. */
  consent: Pick<ConsentStore, 'get'>;
  placeholder: PlaceholderPort;
  /** The placeholder's buttons. */
  openSettings(): void;
  allowService(key: string): void;
}

/** The blocker's handle. */
export interface Blocker {
  /** Run what is allowed now: scripts one after another in document order, iframes, placeholders away. */
  release(): Promise<void>;
  /** Whether these choices allow markup only the server releases (com_gdpr's blocking): the page must reload. */
  unlocks(categories: Categories, services: readonly string[]): boolean;
}

interface Held extends ElementClaim {
  element: Element;
  placeholder: Element | null;
}

/**
 * Keep what a category that is off claims from running (docs/protocol.md#5c): scripts become inert
 * (`type="text/plain"`, `src` kept as `data-src`, the type as `data-type`) before they are prepared,
 * iframes lose their address before it loads; both wait, with a placeholder over iframes, until
 * `release()` runs them once, in document order. Vendor code that was on the page before the bundle
 * started ran already: it is named once on the console and in the debug box.
 */
export function startBlocker(deps: BlockerDeps): Blocker {
  const { doc, win, config, t, log } = deps;
  const held: Held[] = [];
  const seen = new WeakSet<Element>();
  const escaped: string[] = [];
  // the prototype's method: a page that redefines document.createElement does not reach our elements
  const create = (tag: string): HTMLElement =>
    (win as Window & typeof globalThis).Document.prototype.createElement.call(doc, tag);

  /** Whether a claim may run under these choices: its category on, or its service allowed on its own. */
  const allowedBy = (item: ElementClaim, isOn: (id: CategoryId) => boolean, services: readonly string[]): boolean =>
    isOn(item.category) || (item.service !== null && services.includes(item.service));
  const allowed = (item: ElementClaim): boolean => allowedBy(item, deps.allows, deps.consent.get().services);

  const placeholderFor = (item: Held): void => {
    const { element } = item;
    if (!config.placeholders || item.placeholder || !element.parentNode || !held.includes(item)) return;
    const once = (): void => settle(activate([item]), log.error);
    item.placeholder = deps.placeholder(element, item, {
      once,
      always: () => deps.allowService(item.service!),
      settings: () => deps.openSettings(),
    });
    element.setAttribute('hidden', '');
    // destroy(): the placeholder goes with the bundle (a copy started after it puts its own)
    deps.lifetime.add(() => {
      item.placeholder?.remove();
      item.element.removeAttribute('hidden');
    });
  };

  const hold = (item: Held): void => {
    held.push(item);
    if (item.element.localName === 'script') return;
    // caught before insertion: the placeholder comes once the element is in the page
    if (item.element.parentNode) placeholderFor(item);
    else queueMicrotask(() => placeholderFor(item));
  };

  /**
   * Take a held element's address away (kept as `data-src`). An iframe in the page may have started
   * loading: a copy without the address replaces it, which ends the load (taking the attribute away
   * would not).
   */
  const unload = (item: Held, src: string): void => {
    const { element } = item;
    element.setAttribute('data-src', src);
    element.removeAttribute('src');
    if (element.localName !== 'script' && element.isConnected) {
      const copy = element.cloneNode(false) as Element;
      seen.add(copy);
      element.replaceWith(copy);
      item.element = copy;
    }
  };

  deps.watch.add(WATCHED, (element, existing) => {
    const src = element.getAttribute('src');
    if (seen.has(element)) {
      // a held element given an address later (a lazy loader copying data-src to src): held again
      // (com_gdpr's server-blocked markup keeps its own)
      const item = held.find((h) => h.element === element);
      if (item && src && !item.server) unload(item, src);
      return !!item;
    }
    const claim = claimElement(config, element, doc.baseURI);
    if (!claim) return;
    seen.add(element);
    const item: Held = { ...claim, element, placeholder: null };
    if (claim.server) return !allowed(claim) && (hold(item), true);
    // a Google tag in a page that had no dataLayer when the bundle ran (the tag first in <head>):
    // Consent Mode's default now, before the tag can run, held or not
    if (claim.service?.startsWith('google-') && !(win as { dataLayer?: unknown }).dataLayer)
      consentModeBridge(deps, true)?.('default', deps.consent.get().categories);
    const script = element.localName === 'script';
    if (script && element.getAttribute('type') === 'text/plain') return void held.push(item); // the blocked markup
    if (allowed(claim)) {
      // the blocked markup of an iframe, allowed already: load it now
      if (!script && !src) element.setAttribute('src', element.getAttribute('data-src')!);
      return;
    }
    const name = claim.service ? config.services[claim.service]!.name : addressOf(element, doc.baseURI)?.hostname;
    if (existing && (script || src)) escaped.push(name ?? 'inline script');
    if (existing && script) return; // prepared by the parser already: nothing stops it now
    element.setAttribute('data-category', String(claim.category));
    if (script) {
      element.setAttribute('data-type', element.getAttribute('type') ?? '');
      element.setAttribute('type', 'text/plain');
    }
    if (src) unload(item, src);
    hold(item);
    return true;
  });
  if (escaped.length) {
    // for whoever installs the tag: in English, as the configuration warnings are
    const text = `Ran before PagePulse: ${[...new Set(escaped)].join(', ')}. Put the tag first in <head> (README).`;
    log.warn(text);
    deps.debug.add(t.consentCallTitle, text);
  }

  /** Activate held elements: scripts in document order, one after another, iframes, their placeholders away. */
  async function activate(items: Held[]): Promise<void> {
    const ready = items
      .filter((item) => held.includes(item))
      .sort((a, b) => (a.element.compareDocumentPosition(b.element) & 4 ? -1 : 1));
    for (const item of ready) held.splice(held.indexOf(item), 1);
    for (const item of ready) {
      item.placeholder?.remove();
      item.element.removeAttribute('hidden');
      if (item.element.localName === 'iframe')
        item.element.setAttribute('src', item.element.getAttribute('data-src') ?? 'about:blank');
      else if (item.element.isConnected) await run(item.element);
    }
  }

  /** Run a held script as a fresh element in its place; an external one is waited for (order). */
  function run(old: Element): Promise<void> {
    const script = create('script') as HTMLScriptElement;
    for (const { name, value } of old.attributes)
      if (!/^(type|src|data-src|data-type|data-category)$/.test(name)) script.setAttribute(name, value);
    // the page's CSP nonce (Joomla 4/5): a browser hides the attribute once the element is in a page
    // whose policy came in a header, so the copy takes the property (an inline snippet refused before)
    script.nonce = (old as HTMLElement).nonce;
    const type = old.getAttribute('data-type');
    if (type) script.setAttribute('type', type);
    const address = old.getAttribute('data-src');
    seen.add(script);
    if (!address) {
      script.text = old.textContent ?? '';
      old.replaceWith(script);
      return Promise.resolve();
    }
    script.async = false;
    return new Promise((resolve) => {
      script.onload = () => resolve();
      script.onerror = () => {
        // on the console, in English like the configuration warnings
        log.error(`could not load ${address.split('/').pop() || address} (network or HTTP error)`);
        resolve();
      };
      script.src = address;
      old.replaceWith(script);
    });
  }

  return {
    release: () => activate(held.filter((item) => !item.server && allowed(item))),
    unlocks: (categories, services) => held.some((item) => item.server && allowedBy(item, (id) => categories[id], services)),
  };
}
