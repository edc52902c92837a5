import { de } from './de';
import { en } from './en';

/** The admin area's languages: German first (the product's), English second. */
export type Lang = 'de' | 'en';

/** The texts of one language. */
export type Messages = typeof de;
export const MESSAGES: Record<Lang, Messages> = { de, en };

const KEY = 'pagepulse-admin-lang';

/**
 * The browser's language as the sign-in page reads it from Accept-Language (login-page.ts
 * loginLang): the first of German and English in its list, German when it names neither.
 */
export function browserLang(languages: readonly string[] = navigator.languages ?? [navigator.language]): Lang {
  for (const tag of languages) {
    const lang = tag.toLowerCase().split('-')[0];
    if (lang === 'de' || lang === 'en') return lang;
  }
  return 'de';
}

/** The chosen language (this browser), else the browser's: the sign-in page's language. */
export function storedLang(): Lang {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    // private mode: the browser's language
  }
  return stored === 'en' || stored === 'de' ? stored : browserLang();
}

/** Remember the language for the next visit. */
export function storeLang(lang: Lang): void {
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
}
