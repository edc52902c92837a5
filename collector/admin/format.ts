import type { Lang } from './i18n';

/** A time on page in ms as "40 s" or "2 min 5 s" (the heartbeat interval is the resolution: whole seconds suffice). */
export function duration(ms: number, lang: Lang): string {
  const seconds = Math.round(ms / 1000);
  const number = new Intl.NumberFormat(lang);
  if (seconds < 60) return `${number.format(seconds)} s`;
  const rest = seconds % 60;
  return `${number.format(Math.floor(seconds / 60))} min${rest ? ` ${rest} s` : ''}`;
}

/** A share 0..1 as a whole percentage in the admin's language. */
export function percent(share: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}
