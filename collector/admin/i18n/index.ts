import { de } from './de';
import { en } from './en';

/** The admin area's languages: German first (the product's), English second. */
export type Lang = 'de' | 'en';

/** The texts of one language. */
export type Messages = typeof de;
export const MESSAGES: Record<Lang, Messages> = { de, en };

const KEY = 'pagepulse-admin-lang';

/** The chosen language (German unless English was picked before). */
export function storedLang(): Lang {
  try {
    return localStorage.getItem(KEY) === 'en' ? 'en' : 'de';
  } catch {
    return 'de';
  }
}

/** Remember the language for the next visit. */
export function storeLang(lang: Lang): void {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
}
