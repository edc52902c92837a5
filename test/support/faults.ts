import type { Reply } from './server';

/** A faulty server answer of the reliability matrix, and what the bundle must make of it. */
export interface Fault {
  name: string;
  reply: Reply;
  /** Text the debug box must show. */
  shows: RegExp;
  /** Whether the heartbeat retries (true) or stops for good (false). */
  retried: boolean;
  /**
   * A readable answer without a non-empty `storing` list: for the heatmap click a success by the
   * original client's rule (docs/protocol.md#heatmap-click), so nothing is shown for it.
   */
  clickSaved?: true;
}

const HTML_ERROR =
  '<!doctype html><html><head><title>Error</title></head><body><h1>Fehler</h1><script>window.__pwned = 1</script></body></html>';

/** The reliability matrix (docs/decisions.md#reliability), for every call. The slow one needs a request timeout below 1 s. */
export const FAULTS: Fault[] = [
  { name: 'HTTP 404', reply: { status: 404, body: 'Not Found' }, shows: /HTTP 404/, retried: false },
  {
    name: 'HTTP 500 with a JSON message',
    reply: { status: 500, body: { message: 'Interner Fehler <b>x</b>' } },
    shows: /HTTP 500 Interner Fehler <b>x<\/b>/,
    retried: true,
  },
  { name: 'HTTP 502', reply: { status: 502, body: 'Bad Gateway' }, shows: /HTTP 502/, retried: true },
  { name: 'HTTP 503', reply: { status: 503, body: '' }, shows: /HTTP 503/, retried: true },
  {
    name: 'an HTML error page instead of JSON',
    reply: { status: 200, body: HTML_ERROR, headers: { 'content-type': 'text/html' } },
    shows: /Parser-Fehler.*<!doctype html>/s,
    retried: true,
  },
  {
    name: 'truncated JSON',
    reply: { status: 200, body: '{"configparams":{"daemonrefresh":', headers: { 'content-type': 'application/json' } },
    shows: /Parser-Fehler/,
    retried: true,
  },
  {
    name: 'JSON of the wrong shape',
    reply: { status: 200, body: { configparams: 'x', storing: { a: 1 }, loading: 7, 'data-bind': [1, 2] } },
    shows: /Unerwartete Antwort.*configparams/,
    retried: true,
    clickSaved: true,
  },
  {
    name: 'a 1 MB answer',
    reply: { status: 200, body: `{"pad":"${'x'.repeat(1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } },
    shows: /too large/,
    retried: true,
  },
  {
    name: 'an answer slower than the timeout',
    reply: { status: 200, body: { storing: [] }, delayMs: 1500 },
    shows: /Zeit für die Verarbeitung/,
    retried: true,
  },
  { name: 'a reset connection', reply: 'reset', shows: /Netzwerkfehler beim Datenstream: \S+/, retried: true },
];
