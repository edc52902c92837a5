import type { CategoryId, Config } from '../config';

/** The com_gdpr `user.*` tasks the bundle calls. */
export type GdprTask =
  'processGenericCookieCategories' | 'processCookieCategory' | 'getCookieCategoryDescription' | 'storeConsent' | 'deleteConsent';

/** A com_gdpr task's address (protocol section 5); the consent log calls use it as is. */
export function gdprUrl(base: string, task: GdprTask): string {
  return `${base}index.php?option=com_gdpr&task=user.${task}`;
}

/**
 * A category's description: the site's own endpoint (gdpr_ajaxendpoint_cookie_category_desc), else
 * com_gdpr's; on an English page com_gdpr's address asks for English with Joomla's own `lang`
 * parameter (a multilingual Joomla site switches on it, others ignore it; German stays as it was).
 */
export function descriptionUrl(config: Pick<Config, 'base' | 'descriptionUrl' | 'lang'>, id: CategoryId): string {
  return `${config.descriptionUrl || `${gdprUrl(config.base, 'getCookieCategoryDescription')}&format=raw${config.lang === 'en' ? '&lang=en' : ''}`}&gdpr_cookie_category=${id}`;
}

/** Form consent: a ticked privacy checkbox stores the consent, an unticked one deletes it. */
export function formConsentUrl(base: string, ticked: boolean): string {
  return `${gdprUrl(base, ticked ? 'storeConsent' : 'deleteConsent')}&format=raw`;
}
