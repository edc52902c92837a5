/**
 * The page-error probe the recording server puts first into every fixture page when asked
 * (`startServer({ probe: true })`). Classic WebDriver (WebKit) has no console or page-error
 * events, so the page reports for itself: uncaught errors, unhandled rejections and
 * Content-Security-Policy violations go to `window.__pageErrors` and, so that they survive a
 * reload, to the server (`POST /__probe`, kept in `server.pageErrors`). One mechanism for all
 * three engines, so a scenario's "no page error" means the same everywhere. An external file,
 * not inline: it must itself pass a strict `script-src 'self'`.
 */
export const PROBE_PATH = '/__probe.js';
/** Where the probe posts each report (text/plain body). */
export const PROBE_REPORT_PATH = '/__probe';

export const PROBE_SCRIPT = `(function () {
  var errors = (window.__pageErrors = []);
  function report(text) {
    errors.push(text);
    try {
      fetch(${JSON.stringify(PROBE_REPORT_PATH)}, { method: 'POST', body: location.pathname + ' ' + text, keepalive: true }).catch(function () {});
    } catch (e) {}
  }
  function describe(value) {
    return value && value.message ? String(value.name || 'Error') + ': ' + value.message : String(value);
  }
  // a script error is an ErrorEvent at window; failed resource loads do not bubble up to here
  window.addEventListener('error', function (event) {
    if (event instanceof ErrorEvent) report('error ' + (event.error ? describe(event.error) : event.message));
  });
  window.addEventListener('unhandledrejection', function (event) { report('unhandled rejection ' + describe(event.reason)); });
  document.addEventListener('securitypolicyviolation', function (event) {
    report('csp violation ' + event.violatedDirective + ' ' + event.blockedURI + ' ' + (event.sample || ''));
  });
})();`;
