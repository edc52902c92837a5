import { de, type Messages } from './de';
import { en } from './en';

export { format } from './format';

/** Supported languages; German is the default. */
export type Lang = 'de' | 'en';
export type { Messages };

/** The message table of a language. */
export function messages(lang: Lang): Messages {
  return lang === 'en' ? en : de;
}
