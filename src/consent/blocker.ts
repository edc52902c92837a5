import { CATEGORY_IDS, type CategoryId, type Config } from '../config';
import { format, type Messages } from '../i18n';
import type { Lifetime } from '../platform/lifetime';
import { settle } from '../platform/guard';
import { categoryOf } from './rules';
import { hostIn, serviceOf } from './services';
import type { ConsentStore } from './store';

/** Styles of the light-DOM placeholders, adopted into the document (a strict CSP allows that). */
const PLACEHOLDER_CSS = `.gdprlock-placeholder{box-sizing:border-box;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px;min-height:120px;max-width:100%;padding:20px;border:1px solid #8a8a8a;border-radius:6px;background:#f4f4f4;color:#1d1d1f;font:15px/1.45 system-ui,sans-serif;text-align:center}
.gdprlock-placeholder-text{max-width:36em}
.gdprlock-placeholder button{font:inherit;padding:8px 14px;border:0;border-radius:4px;background:#0b57d0;color:#fff;cursor:pointer}
.gdprlock-placeholder button:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}`;

/** What the blocker needs. */
export interface BlockerDeps {
  doc: Document;
  win: Window;
  lifetime: Lifetime;
  config: Config;
  t: Messages;
  /** Whether a category is on now. */
  allows(id: CategoryId): boolean;
  /** The consent store: the services allowed on their own, and the placeholder's "always allow". */
  consent: Pick<ConsentStore, 'get' | 'allowService'>;
  /** The placeholder's buttons. */
  openSettings(): void;
  allowService(key: string): void;
  log: { error(...args: unknown[]): void };
}

/** The blocker's handle. */
export interface Blocker {
  /** Run what the categories now on allow: scripts in document order, iframes, placeholders away. */
  release(): Promise<void>;
}

interface Held {
  element: HTMLScriptElement | HTMLIFrameElement | Element;
  category: CategoryId;
  /** The service it belongs to (docs/protocol.md#5b-services-clearing-revision), if known. */
  service: string | null;
  placeholder: HTMLElement | null;
  /** A com_gdpr element: the server releases it after a reload; we only show the placeholder. */
  server: boolean;
}

/**
 * Keep category 3/4 resources inert until allowed (protocol section 5). Our markup is inert by
 * itself (`type="text/plain"`, `data-src`); resources from listed hosts that other scripts add
 * later are neutralised BEFORE insertion by wrapping the DOM insertion methods (a script is
 * prepared the moment it is inserted, so an observer would be too late), and parser-inserted ones
 * by a MutationObserver, which runs before the parser executes them.
 */
export function startBlocker(deps: BlockerDeps): Blocker {
  const { doc, config, lifetime, t, log } = deps;
  const held: Held[] = [];
  const seen = new WeakSet<Element>();
  let sheet: CSSStyleSheet | null = null;

  const hostOf = (address: string | null): string | null => {
    try {
      return address && !/gdprlock/.test(address) ? new URL(address, doc.baseURI).hostname : null;
    } catch {
      return null;
    }
  };
  /** The category whose listed hosts, or whose services' hosts, hold `host`. */
  const hostCategory = (host: string | null): CategoryId | null => {
    if (!host) return null;
    for (const id of CATEGORY_IDS) if (hostIn(host, config.categories[id].domains)) return id;
    const service = serviceOf(config, null, host);
    return service ? config.services[service]!.category : null;
  };
  const allowed = (category: CategoryId, service: string | null): boolean =>
    deps.allows(category) || (service !== null && deps.consent.get().services.includes(service));

  const placeholderFor = (item: Held): HTMLElement | null => {
    const { element, category, service } = item;
    if (!config.placeholders || !element.parentNode) return null;
    ensureSheet();
    const host = hostOf(element.getAttribute('data-src') ?? element.getAttribute('src'));
    const name = service && config.services[service]!.name;
    const box = doc.createElement('div');
    box.className = 'gdprlock-placeholder';
    box.setAttribute('data-category', String(category));
    const width = element.getAttribute('width');
    const height = element.getAttribute('height');
    if (width && /^\d+$/.test(width)) box.style.width = `${width}px`;
    if (height && /^\d+$/.test(height)) box.style.minHeight = `${height}px`;
    const text = doc.createElement('div');
    text.className = 'gdprlock-placeholder-text';
    text.textContent =
      config.placeholderText ||
      (name ? format(t.placeholderService, name) : host ? format(t.placeholderDomain, host) : t.placeholder);
    const button = (label: string, onClick: () => void): HTMLButtonElement => {
      const element = doc.createElement('button');
      element.type = 'button';
      element.textContent = label;
      element.addEventListener('click', onClick);
      return element;
    };
    box.append(text);
    if (name) {
      // a service: load this element once (nothing stored, nothing logged), or allow the service
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', name);
      box.append(
        button(t.placeholderOnce, () => settle(activate([item]), log.error)),
        button(format(t.placeholderAlways, name), () => deps.allowService(service!)),
      );
    } else box.append(button(t.placeholderButton, () => deps.openSettings()));
    element.parentNode.insertBefore(box, element);
    element.setAttribute('hidden', '');
    return box;
  };

  const ensureSheet = (): void => {
    if (sheet || !('adoptedStyleSheets' in doc)) return;
    sheet = new CSSStyleSheet();
    sheet.replaceSync(PLACEHOLDER_CSS);
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, sheet];
    lifetime.add(() => {
      doc.adoptedStyleSheets = doc.adoptedStyleSheets.filter((s) => s !== sheet);
    });
  };

  /** Look at one element; neutralise it if a category that is off claims it. */
  const inspect = (element: Element): void => {
    if (seen.has(element)) return;
    const tag = element.localName;
    const marked = categoryOf(element.getAttribute('data-category'));
    const src = element.getAttribute('src');
    if (element.getAttribute('data-source') === 'gdprlock' || (src && /gdprlock/.test(src))) {
      seen.add(element);
      const category = marked ?? 4;
      if (!deps.allows(category)) hold({ element, category, service: null, placeholder: null, server: true });
      return;
    }
    if (tag === 'script') {
      const script = element as HTMLScriptElement;
      const host = hostOf(element.getAttribute('data-src') ?? src);
      const service = serviceOf(config, element.getAttribute('data-service'), host);
      if (script.type === 'text/plain' && marked) {
        seen.add(element);
        held.push({ element, category: marked, service, placeholder: null, server: false });
        return;
      }
      const listed = hostCategory(host);
      if (listed && !allowed(listed, service)) {
        seen.add(element);
        script.setAttribute('data-src', src!);
        script.removeAttribute('src');
        script.type = 'text/plain';
        script.setAttribute('data-category', String(listed));
        held.push({ element, category: listed, service, placeholder: null, server: false });
      }
      return;
    }
    if (tag === 'iframe') {
      const host = hostOf(element.getAttribute('data-src') ?? src);
      const listed = marked && element.hasAttribute('data-src') ? marked : hostCategory(host);
      if (!listed) return;
      seen.add(element);
      const service = serviceOf(config, element.getAttribute('data-service'), host);
      if (allowed(listed, service)) {
        if (!src && element.getAttribute('data-src')) element.setAttribute('src', element.getAttribute('data-src')!);
        return;
      }
      if (src) {
        element.setAttribute('data-src', src);
        element.removeAttribute('src');
      }
      element.setAttribute('data-category', String(listed));
      hold({ element, category: listed, service, placeholder: null, server: false });
    }
  };

  /** Keep an element with a placeholder; one caught before insertion gets it once it is in the page. */
  const hold = (item: Held): void => {
    held.push(item);
    item.placeholder = placeholderFor(item);
    if (!item.placeholder && !item.server)
      queueMicrotask(() => {
        if (held.includes(item) && !item.placeholder) item.placeholder = placeholderFor(item);
      });
  };

  const inspectTree = (node: Node): void => {
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    if (node.nodeType === 1) inspect(node as Element);
    const found = (node as ParentNode).querySelectorAll?.('script, iframe, [data-source="gdprlock"], [src*="gdprlock"]');
    if (found) for (const element of Array.from(found)) inspect(element);
  };

  // insertions by other scripts: inspect before the element is connected
  const wrap = <K extends string>(proto: Record<K, unknown>, name: K): void => {
    const original = proto[name] as (...args: unknown[]) => unknown;
    if (typeof original !== 'function') return;
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      for (const arg of args) {
        try {
          if (arg && typeof arg === 'object') inspectTree(arg as Node);
        } catch (error) {
          log.error('blocker', error);
        }
      }
      return original.apply(this, args);
    };
    proto[name] = wrapped as Record<K, unknown>[K];
    lifetime.add(() => {
      if (proto[name] === wrapped) proto[name] = original as Record<K, unknown>[K];
    });
  };
  // the page's global scope: Window's type lacks the constructors patched and used here
  const win = deps.win as Window & typeof globalThis;
  const nodeProto = win.Node.prototype as unknown as Record<string, unknown>;
  const elementProto = win.Element.prototype as unknown as Record<string, unknown>;
  wrap(nodeProto, 'appendChild');
  wrap(nodeProto, 'insertBefore');
  for (const name of ['append', 'prepend', 'before', 'after', 'replaceWith']) wrap(elementProto, name);

  // what the parser inserts (and anything the wrappers missed)
  const observer = new win.MutationObserver((records: MutationRecord[]) => {
    for (const record of records) for (const node of Array.from(record.addedNodes)) inspectTree(node as Node);
  });
  observer.observe(doc.documentElement, { childList: true, subtree: true });
  lifetime.add(() => observer.disconnect());
  inspectTree(doc.documentElement);

  /** Activate held elements: scripts in document order, iframes, their placeholders away. */
  async function activate(items: Held[]): Promise<void> {
    const ready = items
      .filter((h) => held.includes(h))
      .sort((a, b) => (a.element.compareDocumentPosition(b.element) & 4 ? -1 : 1));
    for (const item of ready) held.splice(held.indexOf(item), 1);
    for (const item of ready) {
      item.placeholder?.remove();
      if (item.element.localName === 'iframe') {
        item.element.removeAttribute('hidden');
        item.element.setAttribute('src', item.element.getAttribute('data-src') ?? 'about:blank');
      } else await run(item.element as HTMLScriptElement);
    }
  }

  function release(): Promise<void> {
    return activate(held.filter((h) => allowed(h.category, h.service) && !h.server));
  }

  return { release };

  /** Run a held script as a fresh element; external ones one after another, in document order. */
  function run(old: HTMLScriptElement): Promise<void> {
    const script = doc.createElement('script');
    for (const attribute of Array.from(old.attributes)) {
      if (!['type', 'data-src', 'data-category', 'src'].includes(attribute.name))
        script.setAttribute(attribute.name, attribute.value);
    }
    const address = old.getAttribute('data-src') ?? old.getAttribute('src');
    if (!address) {
      script.text = old.text;
      seen.add(script);
      old.replaceWith(script);
      return Promise.resolve();
    }
    script.async = false;
    return new Promise((resolve) => {
      script.addEventListener('load', () => resolve(), { once: true });
      script.addEventListener(
        'error',
        () => {
          log.error(format(t.scriptLoadError, address.split('/').pop() || address, 'network or HTTP error'));
          resolve();
        },
        { once: true },
      );
      script.src = address;
      seen.add(script);
      old.replaceWith(script);
    });
  }
}
