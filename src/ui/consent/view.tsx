import { createElement, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { Config } from '../../config';
import { CATEGORY_IDS } from '../../config/categories';
import type { ConsentActions, ConsentViewState } from '../../consent/controller';
import type { SafeNode } from '../../consent/sanitize';
import { bannerTexts, type BannerTexts } from '../../consent/texts';
import type { Messages } from '../../i18n';
import { format } from '../../i18n/format';
import type { Store } from '../../platform/store';
import { mountReactSurface } from '../react-root';
import css from './consent.css?inline';

interface Props {
  view: Store<ConsentViewState>;
  actions: ConsentActions;
  t: Messages;
  config: Config;
  texts: BannerTexts;
}

/** A sanitized description as React elements (never HTML strings). */
function render(nodes: SafeNode[]): ReactNode[] {
  return nodes.map((node, index) =>
    typeof node === 'string'
      ? node
      : createElement(
          node.tag,
          {
            key: index,
            className: node.className,
            ...(node.tag === 'a' && node.href ? { href: node.href, target: '_blank', rel: 'noopener noreferrer' } : {}),
          },
          ...(node.tag === 'br' ? [] : render(node.children)),
        ),
  );
}

/** The settings dialog: a native modal (top layer, inert page), Tab wraps, Escape closes; the category's services with their own switches. */
function Details({ view, actions, t, config }: Props) {
  const { details, draft, services, id } = useSyncExternalStore(view.subscribe, view.get);
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (details && !element.open) {
      opener.current = (element.getRootNode() as ShadowRoot).activeElement ?? document.activeElement;
      element.showModal();
    } else if (!details && element.open) element.close();
  }, [details]);
  const onClose = () => {
    actions.closeDetails();
    (opener.current as HTMLElement | null)?.focus?.();
  };
  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key !== 'Tab' || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button, a[href], input:enabled')];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = (dialog.current.getRootNode() as ShadowRoot).activeElement;
    if (event.shiftKey && active === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first?.focus();
    }
  };
  const name = details ? actions.categoryName(details.id) : '';
  const on = details ? draft[details.id] : false;
  const locked = details ? config.categories[details.id].locked : false;
  const keys = details ? Object.keys(config.services).filter((key) => config.services[key]!.category === details.id) : [];
  return (
    <dialog ref={dialog} aria-labelledby="pp-details-title" onClose={onClose} onKeyDown={onKeyDown}>
      <header>
        <h2 id="pp-details-title">{format(t.consentDetails, name)}</h2>
        <button type="button" className="close" aria-label={t.close} onClick={onClose}>
          ×
        </button>
      </header>
      {details && (
        <span className="category">
          <input
            type="checkbox"
            id="pp-details-on"
            checked={on}
            disabled={locked}
            onChange={(event) => actions.toggle(details.id, event.currentTarget.checked)}
          />
          <label htmlFor="pp-details-on">{name}</label>
        </span>
      )}
      <div className="description" aria-live="polite">
        {details?.state === 'loading' && <p className="status">{t.consentLoading}</p>}
        {details?.state === 'error' && <p className="error">{t.consentLoadError}</p>}
        {details?.state === 'ready' && render(details.nodes)}
      </div>
      {/* the category's services, each allowed on its own (on and fixed while the whole category is on) */}
      {keys.length > 0 && (
        <fieldset>
          <legend>{t.consentServices}</legend>
          {keys.map((key) => {
            const service = config.services[key]!;
            const purpose = service.purpose && (t[`purpose_${service.purpose}` as keyof Messages] ?? service.purpose);
            return (
              <div className="service" key={key}>
                <span className="category">
                  <input
                    type="checkbox"
                    id={`pp-svc-${key}`}
                    checked={on || services.includes(key)}
                    disabled={on}
                    onChange={(event) => actions.toggleService(key, event.currentTarget.checked)}
                  />
                  <label htmlFor={`pp-svc-${key}`}>{service.name}</label>
                </span>
                <small>
                  {[service.provider, purpose, service.cookies.length > 0 && `Cookies: ${service.cookies.join(', ')}`]
                    .filter(Boolean)
                    .join(' · ')}{' '}
                  {service.privacyUrl && (
                    <a href={service.privacyUrl} target="_blank" rel="noopener noreferrer">
                      {t.consentPrivacy}
                    </a>
                  )}
                </small>
              </div>
            );
          })}
        </fieldset>
      )}
      {id && <p className="status">{format(t.consentId, id)}</p>}
      <div className="actions">
        <button type="button" onClick={actions.save}>
          {t.consentSave}
        </button>
      </div>
    </dialog>
  );
}

/** The banner: fixed at the bottom, decline first, categories as checkboxes, names open details. */
function Banner(props: Props) {
  const { view, actions, t, config, texts } = props;
  const state = useSyncExternalStore(view.subscribe, view.get);
  const section = useRef<HTMLElement>(null);
  // the dialog is rendered from its first opening on (a first visit's banner does not build it)
  const opened = useRef(false);
  opened.current ||= state.details !== null;
  useEffect(() => {
    if (state.open) section.current?.focus({ preventScroll: true });
  }, [state.open]);
  if (!state.open) return null;
  return (
    <section
      ref={section}
      className="banner"
      role="dialog"
      aria-modal="false"
      aria-labelledby="pp-title"
      aria-describedby="pp-text"
      tabIndex={-1}
    >
      <h2 id="pp-title">{render(texts.title)}</h2>
      <div id="pp-text" className="text">
        {/* the message and the links as two text blocks: neither is the page's largest paint (docs/decisions.md) */}
        <div>
          {state.outdated && <strong>{t.consentRevised} </strong>}
          {render(texts.message)}
        </div>
        <div>
          {config.privacyUrl && (
            <a href={config.privacyUrl} onClick={actions.openPrivacy}>
              {texts.privacy}
            </a>
          )}{' '}
          {config.cookiePolicyLink && (
            <a href={config.cookiePolicyLink} target="_blank" rel="noopener noreferrer">
              {texts.cookiePolicy}
            </a>
          )}
        </div>
      </div>
      {config.useCategories && (
        <fieldset>
          <legend>{texts.legend}</legend>
          {texts.settingsDesc.length > 0 && <div className="desc">{render(texts.settingsDesc)}</div>}
          {CATEGORY_IDS.filter((id) => config.categories[id].offered || config.categories[id].locked).map((id) => {
            const locked = config.categories[id].locked;
            return (
              <span className="category" key={id}>
                <input
                  type="checkbox"
                  id={`pp-cat-${id}`}
                  checked={state.draft[id]}
                  disabled={locked}
                  onChange={(event) => actions.toggle(id, event.currentTarget.checked)}
                  aria-describedby={locked ? `pp-locked-${id}` : undefined}
                />
                <label htmlFor={`pp-cat-${id}`} className="label">
                  <button type="button" className="name" onClick={() => actions.showDetails(id)} aria-haspopup="dialog">
                    {actions.categoryName(id)}
                  </button>
                </label>
                {locked && (
                  <span className="locked" id={`pp-locked-${id}`}>
                    ({t.consentLocked})
                  </span>
                )}
              </span>
            );
          })}
        </fieldset>
      )}
      <div className="actions">
        <button type="button" onClick={actions.decline}>
          {texts.decline}
        </button>
        <button type="button" onClick={actions.save}>
          {t.consentSave}
        </button>
        <button type="button" onClick={actions.acceptAll}>
          {texts.acceptAll}
        </button>
      </div>
      {opened.current && <Details {...props} />}
    </section>
  );
}

/** Mount the banner and dialog in `<pagepulse-consent>`; returns the teardown. */
export function mountConsent(
  doc: Document,
  view: Store<ConsentViewState>,
  actions: ConsentActions,
  t: Messages,
  config: Config,
): () => void {
  const texts = bannerTexts(config, t, doc.location.href);
  return mountReactSurface(doc, 'consent', css, <Banner view={view} actions={actions} t={t} config={config} texts={texts} />);
}
