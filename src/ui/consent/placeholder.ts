import type { Config } from '../../config';
import type { PlaceholderPort } from '../../consent/blocker';
import { addressOf } from '../../consent/claim';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import { PLACEHOLDER_CLASS, PLACEHOLDER_TEXT_CLASS } from '../../platform/dom';
import { adoptStyles } from '../mount';
import css from './placeholder.css?inline';

/**
 * The placeholders over blocked content (docs/protocol.md#blocked-resources): plain DOM, each in
 * an open shadow root, so page CSS cannot hide their buttons; one stylesheet shared by all. A
 * service's placeholder names it and its provider, says what loading it sends and links the
 * provider's privacy policy; its buttons load this element once or always allow the service.
 */
export function createPlaceholders(doc: Document, config: Config, t: Messages): PlaceholderPort {
  const make = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Node, text?: string): HTMLElementTagNameMap[K] => {
    const element = doc.createElement(tag);
    if (text) element.textContent = text;
    parent.appendChild(element);
    return element;
  };
  return (target, claim, actions) => {
    const service = claim.service ? config.services[claim.service]! : null;
    const host = doc.createElement('pagepulse-placeholder');
    host.className = PLACEHOLDER_CLASS;
    host.setAttribute('data-category', String(claim.category));
    const size = (name: string): string | null =>
      /^\d+$/.test(target.getAttribute(name) ?? '') ? `${target.getAttribute(name)}px` : null;
    host.style.width = size('width') ?? '';
    host.style.minHeight = size('height') ?? '';
    const shadow = host.attachShadow({ mode: 'open' });
    adoptStyles(doc, shadow, css);
    const box = make('div', shadow);
    const button = (label: string, parent: Node, onClick: () => void): void => {
      make('button', parent, label).addEventListener('click', onClick);
    };
    const site = config.placeholderText;
    if (service) {
      // a labelled group: its two buttons name what they load
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', service.name);
      make('strong', make('p', box), format(t.placeholderService, service.name));
      const text = make('p', box, format(t.placeholderSends, service.provider ?? service.name) + (site ? ` ${site}` : ''));
      text.className = PLACEHOLDER_TEXT_CLASS;
      if (service.privacyUrl) {
        const link = make('a', make('p', box), format(t.placeholderPrivacy, service.provider ?? service.name));
        link.href = service.privacyUrl;
        link.target = '_blank';
        link.rel = 'noopener noreferrer';
      }
      const buttons = make('p', box);
      button(t.placeholderOnce, buttons, actions.once);
      button(format(t.placeholderAlways, service.name), buttons, actions.always);
    } else {
      const address = addressOf(target, doc.baseURI);
      const text = site || (address ? format(t.placeholderDomain, address.hostname) : t.placeholder);
      make('p', box, text).className = PLACEHOLDER_TEXT_CLASS;
      button(t.placeholderButton, box, actions.settings);
    }
    target.parentNode!.insertBefore(host, target);
    return host;
  };
}
