import type { NotifyOptions } from '../context';
import { format, type Messages } from '../i18n';
import type { RequestError } from '../platform/request';

/** Joomla's message for a failed request (Joomla.ajaxErrorsMessages), filled in. */
export function describeError(error: RequestError, t: Messages): string {
  switch (error.kind) {
    case 'parse':
      return format(t.ajaxParse, error.detail);
    case 'nocontent':
      return t.ajaxNoContent;
    case 'timeout':
      return t.ajaxTimeout;
    case 'abort':
      return t.ajaxAbort;
    case 'http':
      return error.detail
        ? format(t.ajaxOtherMessage, String(error.status), error.detail)
        : format(t.ajaxOther, String(error.status));
  }
}

/** Where a platform error can be shown. */
export interface AlertDeps {
  doc: Document;
  win: Window;
  t: Messages;
  notify(text: string, options?: NotifyOptions): void;
}

/**
 * Show a platform error as Joomla would: through `Joomla.renderMessages({error: [text]})` when the
 * page has it, else as our own alert in `#system-message-container` (built from text nodes, with
 * the classes Bootstrap, Joomla and UIkit themes style), else as a danger notification.
 */
export function showPlatformError(deps: AlertDeps, error: RequestError): void {
  const text = describeError(error, deps.t);
  const joomla = (deps.win as unknown as { Joomla?: { renderMessages?: (messages: Record<string, string[]>) => void } }).Joomla;
  if (typeof joomla?.renderMessages === 'function') {
    try {
      joomla.renderMessages({ error: [text] });
      return;
    } catch {
      // a broken page helper: fall back to our own markup
    }
  }
  const container = deps.doc.getElementById('system-message-container');
  if (!container) {
    deps.notify(text, { status: 'danger' });
    return;
  }
  const alert = deps.doc.createElement('div');
  alert.className = 'alert alert-danger uk-alert uk-alert-danger pagepulse-alert';
  alert.setAttribute('role', 'alert');
  const close = deps.doc.createElement('button');
  close.type = 'button';
  close.className = 'btn-close close uk-alert-close';
  close.setAttribute('aria-label', deps.t.close);
  close.textContent = '×';
  close.addEventListener('click', () => alert.remove());
  const heading = deps.doc.createElement('h4');
  heading.className = 'alert-heading';
  heading.textContent = deps.t.error;
  const message = deps.doc.createElement('div');
  message.className = 'alert-message';
  message.textContent = text;
  alert.append(close, heading, message);
  container.append(alert);
}
