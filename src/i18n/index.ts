import { de, type Messages } from './de';
import { en } from './en';

/** Supported languages; German is the default. */
export type Lang = 'de' | 'en';
export type { Messages };

/** The message table of a language. */
export function messages(lang: Lang): Messages {
  return lang === 'en' ? en : de;
}

/** Fill `%s` (and `%m`) placeholders of a message. */
export function format(template: string, s: string, m = ''): string {
  return template.replace('%s', () => s).replace('%m', () => m);
}
