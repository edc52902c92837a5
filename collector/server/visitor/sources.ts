/**
 * Referring hosts grouped by name: the search engines, social sites and webmail that send most
 * visitors, so that `www.google.de`, `google.com` and `news.google.co.uk` are one row "Google" on
 * the dashboard (docs/collector.md "Sources"). Everything else is its host, without `www.`.
 *
 * The table is data: one entry per name, its domains (a domain also covers its subdomains; a
 * trailing `.*` stands for any country domain: `google.*` is google.de, google.com, google.co.uk,
 * google.com.au). The first entry that matches wins, so narrower entries (Gmail) come first.
 */
export const SOURCES: ReadonlyArray<readonly [name: string, domains: readonly string[]]> = [
  ['Gmail', ['mail.google.com']],
  ['Outlook.com', ['outlook.live.com', 'outlook.office.com', 'outlook.office365.com']],
  ['Google', ['google.*']],
  ['Bing', ['bing.com']],
  ['DuckDuckGo', ['duckduckgo.com']],
  ['Ecosia', ['ecosia.org']],
  ['Yahoo', ['yahoo.*']],
  ['Yandex', ['yandex.*', 'ya.ru']],
  ['Baidu', ['baidu.com']],
  ['Qwant', ['qwant.com']],
  ['Facebook', ['facebook.com', 'fb.com', 'fb.me']],
  ['Instagram', ['instagram.com']],
  ['X (Twitter)', ['x.com', 'twitter.com', 't.co']],
  ['LinkedIn', ['linkedin.com', 'lnkd.in']],
  ['Pinterest', ['pinterest.*', 'pin.it']],
  ['YouTube', ['youtube.com', 'youtu.be']],
  ['Reddit', ['reddit.com']],
];

/** `.*`: a country domain (`de`, `com`, `co.uk`, `com.au`). */
const ANY_COUNTRY = '(?:(?:com?|org|net)\\.)?[a-z]{2,3}';

const MATCHERS: ReadonlyArray<readonly [string, RegExp]> = SOURCES.map(([name, domains]) => [
  name,
  new RegExp(
    `(?:^|\\.)(?:${domains.map((d) => (d.endsWith('.*') ? `${escape(d.slice(0, -2))}\\.${ANY_COUNTRY}` : escape(d))).join('|')})$`,
  ),
]);

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The name a referring host is shown under: its entry's name, or the host without `www.`. */
export function sourceOf(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, '');
  for (const [name, pattern] of MATCHERS) if (pattern.test(lower)) return name;
  return lower.replace(/^www\./, '');
}
