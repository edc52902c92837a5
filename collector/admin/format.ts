import type { Lang, Messages } from './i18n';

/** A time on page in ms as "40 s" or "2 min 5 s" (the heartbeat interval is the resolution: whole seconds suffice). */
export function duration(ms: number, lang: Lang): string {
  const seconds = Math.round(ms / 1000);
  const number = new Intl.NumberFormat(lang);
  if (seconds < 60) return `${number.format(seconds)} s`;
  const rest = seconds % 60;
  return `${number.format(Math.floor(seconds / 60))} min${rest ? ` ${rest} s` : ''}`;
}

/**
 * A bucket's label (the API's `YYYY-MM-DD` day, `YYYY-MM` month, `HH:MM` hour) in the admin's
 * language: 14.05.2025 and Mai 2025; `short` for the chart's axis (14.05., Mai 25). Hours as given.
 */
export function bucketLabel(label: string, lang: Lang, short = false): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(label);
  const month = /^(\d{4})-(\d{2})$/.exec(label);
  if (day) {
    const date = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    return new Intl.DateTimeFormat(lang, {
      day: '2-digit',
      month: '2-digit',
      year: short ? undefined : 'numeric',
      timeZone: 'UTC',
    }).format(date);
  }
  if (month) {
    const date = Date.UTC(Number(month[1]), Number(month[2]) - 1, 1);
    return new Intl.DateTimeFormat(lang, {
      month: short ? 'short' : 'long',
      year: short ? '2-digit' : 'numeric',
      timeZone: 'UTC',
    }).format(date);
  }
  return label;
}

/** Today's date (`YYYY-MM-DD`) in `timeZone` (the site's), else on the browser's clock while it is not known. */
export function todayIn(timeZone: string | null): string {
  try {
    // en-CA writes dates as YYYY-MM-DD
    return new Intl.DateTimeFormat('en-CA', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      timeZone: timeZone ?? undefined,
    }).format(new Date());
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  }
}

/** A share 0..1 as a whole percentage in the admin's language. */
export function percent(share: number, lang: Lang): string {
  return new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 }).format(share);
}

/**
 * A page address as its path (and query): the rows are the site's pages, the whole address wraps
 * over lines. `withHost` where the rows are of more than one site.
 */
export function pathOf(address: string, withHost = false): string {
  try {
    const url = new URL(address);
    return `${withHost ? url.host : ''}${url.pathname}${url.search}`;
  } catch {
    return address;
  }
}

/** Region names per language, made once (every country row and chip asks). */
const regionNames = new Map<Lang, Intl.DisplayNames>();

/** A country's name in `lang` from its ISO code (the code itself where the runtime knows none). */
export function countryName(t: Messages, lang: Lang, code: string): string {
  if (code === 'unknown') return t.unknown;
  try {
    let names = regionNames.get(lang);
    if (!names) {
      names = new Intl.DisplayNames(lang, { type: 'region', fallback: 'code' });
      regionNames.set(lang, names);
    }
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
