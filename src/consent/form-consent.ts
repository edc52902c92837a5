import type { Config } from '../config';
import { settle } from '../platform/guard';
import type { Lifetime } from '../platform/lifetime';
import type { Requester } from '../platform/request';
import { formConsentUrl } from './endpoints';
import { fieldLabel, isTrackedField } from './rules';

/** What form consent needs from the page. */
export interface FormConsentDeps {
  doc: Document;
  win: Window;
  lifetime: Lifetime;
  request: Requester;
  config: Pick<Config, 'base'>;
  log: { error(...args: unknown[]): void };
}

/** A checkbox that gives consent for its form: named or id'd privacy/gdpr. */
const CONSENT_BOX = /privacy|gdpr/i;

/**
 * com_gdpr's form consent: ticking a privacy checkbox stores the consent with the form's tracked
 * fields, unticking deletes it. One capturing listener on the document serves every form,
 * including forms added later.
 */
export function watchFormConsent({ doc, win, lifetime, request, config, log }: FormConsentDeps): void {
  lifetime.listen(
    doc,
    'change',
    (event) => {
      const box = event.target as HTMLInputElement | null;
      if (!box || box.type !== 'checkbox' || !box.form) return;
      const form = box.form;
      if (!CONSENT_BOX.test(`${box.name} ${box.id}`) && !form.hasAttribute('data-pagepulse-consent')) return;
      const fields: Array<[string, string]> = [
        ['url', win.location.href],
        ['formid', form.id],
        ['formname', form.getAttribute('name') ?? ''],
      ];
      for (const field of form.elements as Iterable<HTMLInputElement>) {
        const key = field.id || field.name;
        // its name OR id tells what it holds (a form builder's `id="ff_elem12" name="email"`); labelled by the id
        if (
          !key ||
          field === box ||
          field.type === 'hidden' ||
          !isTrackedField(`${field.id} ${field.name}`) ||
          field.getClientRects().length === 0
        )
          continue;
        fields.push([`formfields[${fieldLabel(key)}]`, field.value]);
      }
      settle(
        request({ url: formConsentUrl(config.base, box.checked), data: fields, responseType: 'text', keepalive: true }),
        log.error,
      );
    },
    { capture: true },
  );
}
