import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultConfig, type Config } from '../../src/config';
import { startConsentController, type ConsentActions, type ConsentViewState } from '../../src/consent/controller';
import { statusFor } from '../../src/consent/rules';
import type { SafeStorage } from '../../src/consent/storage';
import { createConsentStore } from '../../src/consent/store';
import { messages } from '../../src/i18n';
import { memoryJar } from '../support/cookie-jar';
import { createLifetime, type Lifetime } from '../../src/platform/lifetime';
import type { RequestOptions, Requester } from '../../src/platform/request';
import type { Store } from '../../src/platform/store';

const t = messages('en');
const memoryStorage = (initial: Record<string, string> = {}): SafeStorage & { data: Map<string, string> } => {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
};

interface Options {
  config?: Partial<Config>;
  cookies?: Record<string, string>;
  session?: Record<string, string>;
  gpc?: boolean;
  /** Answer of every request: ok with this text, or a failure (HTTP `failStatus`, default 500). */
  answer?: string | null;
  failStatus?: number;
  /** Put a dataLayer on the page (Consent Mode `auto` then bridges). */
  dataLayer?: unknown[];
}

const lifetimes: Lifetime[] = [];
afterEach(() => {
  for (const lifetime of lifetimes.splice(0)) lifetime.dispose();
});

/** A controller over an in-memory page: cookies, storages, requests, UI port and reload are recorded. */
function setup(options: Options = {}) {
  const config: Config = { ...defaultConfig(), ...options.config };
  const cookies: Record<string, string> = { ...options.cookies };
  const jar = memoryJar(cookies);
  const consent = createConsentStore(jar, config);
  const calls: RequestOptions[] = [];
  const request = (async (o: RequestOptions) => {
    calls.push(o);
    return options.answer === null
      ? { ok: false, error: { kind: 'http', status: options.failStatus ?? 500, detail: '' } }
      : { ok: true, status: 200, data: options.answer ?? '' };
  }) as Requester;
  const reload = vi.fn();
  const session = memoryStorage(options.session);
  const local = memoryStorage();
  // counts lookups of either storage: a first visit must not open them (their first access costs)
  let storageLookups = 0;
  const win = {
    location: { href: 'https://site.example/seite', reload },
    get localStorage() {
      storageLookups++;
      return local;
    },
    get sessionStorage() {
      storageLookups++;
      return session;
    },
    navigator: { globalPrivacyControl: options.gpc ?? false },
    screen: { availWidth: 1400, availHeight: 1000 },
    open: vi.fn(() => ({})),
    ...(options.dataLayer ? { dataLayer: options.dataLayer } : {}),
  } as unknown as Window;
  const lifetime = createLifetime(globalThis);
  lifetimes.push(lifetime);
  const notes: string[] = [];
  const debugs: string[] = [];
  const errors: unknown[][] = [];
  const release = vi.fn(async () => {});
  const mounts: Array<[Store<ConsentViewState>, ConsentActions]> = [];
  const revokeButton: boolean[] = [];
  let reopenByButton: () => void = () => {};
  const handle = startConsentController({
    config,
    consent,
    t,
    win,
    doc: document,
    lifetime,
    request,
    notify: (text) => void notes.push(text),
    log: { error: (...args) => errors.push(args) },
    blocker: { release, unlocks: () => false },
    cookies: jar,
    debug: { add: (title, text) => void debugs.push(`${title}: ${text}`) },
    ui: {
      mountView: (view, actions) => void mounts.push([view, actions]),
      revokeButton(visible, reopen) {
        revokeButton.push(visible);
        reopenByButton = reopen;
      },
    },
  });
  const view = () => mounts[0]![0].get();
  const actions = () => mounts[0]![1];
  return {
    errors,
    debugs,
    handle,
    consent,
    cookies,
    calls,
    reload,
    session,
    win,
    notes,
    release,
    mounts,
    revokeButton,
    view,
    actions,
    clickRevoke: () => reopenByButton(),
    storageLookups: () => storageLookups,
  };
}

/** The log calls (the only POSTs the controller sends with a body) as `task body` lines, com_gdpr's fields only. */
const logLines = (calls: RequestOptions[]) =>
  calls
    .filter((c) => /processGeneric|processCookie/.test(c.url))
    .map((c) => `${c.url.split('task=user.')[1]} ${String(c.data).replace(/&consent_[a-z]+=[^&]*/g, '')}`);
/** The consent ID cookie: 22 base64url characters. */
const ID = expect.stringMatching(/^[\w-]{22}$/);

describe('statusFor: the one allow/deny rule', () => {
  it('allows when any optional category is on, denies when only the necessary one is', () => {
    expect(statusFor({ 1: true, 2: false, 3: false, 4: false })).toBe('deny');
    expect(statusFor({ 1: false, 2: false, 3: false, 4: false })).toBe('deny');
    expect(statusFor({ 1: true, 2: true, 3: false, 4: false })).toBe('allow');
    expect(statusFor({ 1: true, 2: false, 3: true, 4: false })).toBe('allow');
    expect(statusFor({ 1: true, 2: false, 3: false, 4: true })).toBe('allow');
  });
});

describe('consent controller', () => {
  it('first visit: opens the banner with the defaults as draft, releases the blocker, no revoke button', async () => {
    const page = setup();
    expect(page.mounts).toHaveLength(1);
    expect(page.view()).toMatchObject({ open: true, draft: { 1: true, 2: true, 3: false, 4: false }, details: null });
    expect(page.release).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(page.revokeButton.at(-1)).toBe(false), { timeout: 3000 });
    expect(page.revokeButton).not.toContain(true);
    expect(page.calls).toEqual([]);
  });

  it('save: status by statusFor, cookies written, one log call per changed category; only adding, it releases in place', async () => {
    const page = setup();
    page.actions().toggle(3, true);
    page.actions().toggle(1, false); // locked: stays on
    expect(page.view().draft).toEqual({ 1: true, 2: true, 3: true, 4: false });
    page.actions().save();
    expect(page.view().open).toBe(false);
    expect(page.cookies).toEqual({
      cookieconsent_status: 'allow',
      cookieconsent_categories: '1.2.3',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
      pagepulse_q: '1', // the log calls are queued until they are answered
    });
    // nothing was taken back: no reload, the blocker runs what category 3 now allows
    expect(page.consent.get().reloading).toBeUndefined();
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    expect(page.reload).not.toHaveBeenCalled();
    expect(logLines(page.calls)).toEqual([
      'processGenericCookieCategories gdpr_generic_cookie_consent=1',
      'processCookieCategory gdpr_cookie_category=3&gdpr_cookie_category_state=0',
    ]);
    expect(page.calls.every((c) => c.keepalive === true)).toBe(true);
    // taking category 3 back reloads: what it started cannot be stopped in place
    page.handle.set({ 3: false });
    expect(page.consent.get().reloading).toBe(true);
    await vi.waitFor(() => expect(page.reload).toHaveBeenCalledTimes(1));
  });

  it('every log call carries the consent ID; the generic one what was agreed (categories, services, revision, text version)', async () => {
    const page = setup({ config: { revision: 4 } });
    page.actions().toggle(3, true);
    page.actions().toggleService('youtube', true);
    page.actions().save();
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    const id = page.cookies.pagepulse_consent_id!;
    const bodies = page.calls.filter((c) => /task=user.process/.test(c.url)).map((c) => new URLSearchParams(String(c.data)));
    expect(bodies.map((b) => b.get('consent_id'))).toEqual([id, id]);
    expect(Object.fromEntries(bodies[0]!)).toEqual({
      gdpr_generic_cookie_consent: '1',
      consent_id: id,
      consent_categories: '1.2.3',
      consent_services: 'youtube',
      consent_revision: '4',
      consent_text: expect.stringMatching(/^[0-9a-z]{1,7}$/),
    });
    // the ID stays across later choices and a withdrawal, also on a later page (a new browser session keeps the cookie)
    const later = setup({ cookies: { ...page.cookies }, config: { revision: 4 } });
    later.handle.revoke();
    await vi.waitFor(() => expect(later.reload).toHaveBeenCalledTimes(1));
    expect(later.cookies.pagepulse_consent_id).toBe(id);
    expect(
      later.calls
        .filter((c) => /task=user.process/.test(c.url))
        .map((c) => new URLSearchParams(String(c.data)).get('consent_id')),
    ).toEqual([id, id, id]);
    // another site text is another version
    const other = setup({ config: { revision: 4, messageText: 'Andere Worte.' } });
    other.actions().acceptAll();
    await vi.waitFor(() => expect(other.calls.length).toBeGreaterThan(0));
    expect(new URLSearchParams(String(other.calls[0]!.data)).get('consent_text')).not.toBe(bodies[0]!.get('consent_text'));
  });

  it('a service allowed on its own (a placeholder\'s "always allow") is stored and logged with the consent ID, without a choice', async () => {
    const page = setup({ cookies: { cookieconsent_status: 'allow', cookieconsent_categories: '1.2' } });
    page.handle.allowService('vimeo');
    page.handle.allowService('vimeo'); // again: nothing new
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    expect(page.cookies).toMatchObject({
      pagepulse_services: 'vimeo',
      pagepulse_consent_id: ID,
      cookieconsent_categories: '1.2',
    });
    const calls = page.calls.filter((c) => /task=user.process/.test(c.url));
    expect(calls.map((c) => Object.fromEntries(new URLSearchParams(String(c.data))))).toEqual([
      expect.objectContaining({ gdpr_generic_cookie_consent: '1', consent_services: 'vimeo', consent_categories: '1.2' }),
    ]);
    expect(page.reload).not.toHaveBeenCalled();
  });

  it('a site without com_gdpr (404, as the real one answers): the log calls are dropped, never re-sent, named once', async () => {
    for (const status of [404, 403, 400]) {
      const page = setup({ answer: null, failStatus: status });
      page.actions().decline();
      await vi.waitFor(() => expect(page.reload).toHaveBeenCalledTimes(1));
      expect(logLines(page.calls)).toHaveLength(2); // generic, category 2 off
      // nothing queued, no marker: the next page sends nothing again
      expect(page.cookies.pagepulse_q).toBeUndefined();
      expect(page.debugs).toEqual([`${t.consentCallTitle}: No consent log on the server (HTTP ${status}): entries dropped.`]);
    }
    // 408, 429 and 5xx may pass later: kept with the marker, nothing said about a missing endpoint
    for (const status of [408, 429, 500, 503]) {
      const page = setup({ answer: null, failStatus: status });
      page.actions().decline();
      await vi.waitFor(() => expect(page.reload).toHaveBeenCalledTimes(1));
      expect(page.cookies.pagepulse_q).toBe('1');
      expect(page.debugs).toEqual([]);
    }
  });

  it('save with every optional category off is a deny, logged as such', async () => {
    const page = setup({ config: { denyMessageEnabled: false } });
    page.actions().toggle(2, false);
    page.actions().save();
    expect(page.cookies.cookieconsent_status).toBe('deny');
    await vi.waitFor(() => expect(page.reload).toHaveBeenCalled());
    expect(logLines(page.calls)).toEqual([
      'processGenericCookieCategories gdpr_generic_cookie_consent=0',
      'processCookieCategory gdpr_cookie_category=2&gdpr_cookie_category_state=1',
    ]);
  });

  it('a choice that changes nothing: generic log only, no reload, blocker released again', async () => {
    const page = setup();
    page.actions().save(); // the defaults as they are
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    expect(logLines(page.calls)).toEqual(['processGenericCookieCategories gdpr_generic_cookie_consent=1']);
    expect(page.reload).not.toHaveBeenCalled();
    expect(page.consent.get().reloading).toBeUndefined();
  });

  it('without reloadAfterChange: no reload; a decline shows the deny message at once', async () => {
    const page = setup({ config: { reloadAfterChange: false, denyMessage: 'Schade.' } });
    page.actions().decline();
    await vi.waitFor(() => expect(page.notes).toEqual(['Schade.']));
    expect(page.cookies).toEqual({
      cookieconsent_status: 'deny',
      cookieconsent_categories: '1',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
    });
    expect(page.reload).not.toHaveBeenCalled();
    expect(page.release).toHaveBeenCalledTimes(2);
  });

  it('a decline that reloads carries the deny message to the next page in sessionStorage', async () => {
    const page = setup();
    expect(page.revokeButton).toEqual([false]); // shown
    page.actions().decline();
    await vi.waitFor(() => expect(page.reload).toHaveBeenCalled());
    expect(page.notes).toEqual([]);
    expect(page.session.data.get('pagepulse.denied')).toBe('1');
    const next = setup({ cookies: page.cookies, session: Object.fromEntries(page.session.data) });
    await vi.waitFor(() => expect(next.notes).toEqual([t.consentDenyMessage]), { timeout: 3000 });
    expect(next.session.data.has('pagepulse.denied')).toBe(false);
    expect(next.mounts).toHaveLength(0); // a decline is not asked again by default
  });

  it('a first visit opens no storage: no queue to flush, no deny flag, until a choice is made', async () => {
    const page = setup({ answer: null }); // the server fails: the log calls stay queued
    expect(page.mounts).toHaveLength(1);
    // the idle start-up work waits at most 1 s: give it longer
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(page.storageLookups()).toBe(0);
    expect(page.revokeButton).toEqual([false]);
    page.actions().acceptAll();
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    expect(page.storageLookups()).toBeGreaterThan(0); // the log entries are queued before they are sent
    expect(page.cookies.pagepulse_q).toBe('1');
    // a return visit flushes the queue in an idle moment
    const next = setup({ cookies: page.cookies });
    await vi.waitFor(() => expect(next.storageLookups()).toBeGreaterThan(0), { timeout: 3000 });
  });

  it('a return visit opens no storage without the queue marker or a decline, and still offers the revoke button', async () => {
    const first = setup();
    first.actions().acceptAll();
    expect(first.cookies.pagepulse_q).toBe('1'); // queued before sending: the marker is set
    await vi.waitFor(() => expect(first.release).toHaveBeenCalledTimes(2));
    // the answers came: the queue and its marker are gone
    expect(first.cookies.pagepulse_q).toBeUndefined();
    const next = setup({ cookies: first.cookies });
    await vi.waitFor(() => expect(next.revokeButton).toEqual([true]), { timeout: 3000 });
    expect(next.storageLookups()).toBe(0);
    expect(next.calls).toEqual([]);
    // after a decline the deny flag is looked up (sessionStorage), the queue still not
    const declined = setup({ cookies: { cookieconsent_status: 'deny', cookieconsent_categories: '1' } });
    await vi.waitFor(() => expect(declined.revokeButton).toEqual([true]), { timeout: 3000 });
    expect(declined.storageLookups()).toBe(1);
  });

  it('logConsent off: the choice sends nothing', async () => {
    const page = setup({ config: { logConsent: false } });
    page.actions().acceptAll();
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    expect(page.cookies.cookieconsent_categories).toBe('1.2.3.4');
    expect(page.calls).toEqual([]);
  });

  it('acceptAll turns on what is offered (and locked), not what the site hides', async () => {
    const config = defaultConfig();
    config.categories[4].offered = false;
    const page = setup({ config: { categories: config.categories } });
    page.actions().acceptAll();
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2));
    expect(page.cookies).toEqual({
      cookieconsent_status: 'allow',
      cookieconsent_categories: '1.2.3',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
    });
  });

  it('openAlwaysDeclined reopens the banner after a decline; otherwise the revoke button is offered', async () => {
    const declined = { cookieconsent_status: 'deny', cookieconsent_categories: '1' };
    const again = setup({ cookies: declined, config: { openAlwaysDeclined: true } });
    expect(again.mounts).toHaveLength(1);
    expect(again.view().open).toBe(true);
    const quiet = setup({ cookies: declined });
    expect(quiet.mounts).toHaveLength(0);
    await vi.waitFor(() => expect(quiet.revokeButton).toEqual([true]), { timeout: 3000 });
    quiet.clickRevoke();
    expect(quiet.revokeButton).toEqual([true, false]);
    expect(quiet.view()).toMatchObject({ open: true, draft: { 1: true, 2: false, 3: false, 4: false } });
    const accepted = setup({
      cookies: { cookieconsent_status: 'allow', cookieconsent_categories: '1.2.3' },
      config: { openAlwaysDeclined: true },
    });
    expect(accepted.mounts).toHaveLength(0);
  });

  it('no revoke button when the site turned it off', async () => {
    const page = setup({
      cookies: { cookieconsent_status: 'allow', cookieconsent_categories: '1.2' },
      config: { revokable: false },
    });
    await vi.waitFor(() => expect(page.revokeButton).toEqual([false]), { timeout: 3000 });
  });

  it('accept by country: outside the EU the offered categories are chosen without asking (marketing off under GPC)', async () => {
    const page = setup({ config: { country: 'US' }, gpc: true, dataLayer: [] });
    expect(page.mounts).toHaveLength(0);
    expect(page.cookies).toEqual({
      cookieconsent_status: 'allow',
      cookieconsent_categories: '1.2.3',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
      pagepulse_q: '1',
    });
    const dataLayer = (page.win as unknown as { dataLayer: IArguments[] }).dataLayer;
    expect(Array.from(dataLayer.at(-1)!)).toEqual([
      'consent',
      'update',
      expect.objectContaining({ analytics_storage: 'granted', ad_storage: 'denied' }),
    ]);
    // it only adds to the defaults: released in place, no reload
    await vi.waitFor(() => expect(page.release).toHaveBeenCalledTimes(2), { timeout: 3000 });
    expect(page.reload).not.toHaveBeenCalled();
    expect(setup({ config: { country: 'de' } }).mounts).toHaveLength(1);
  });

  it('set() keeps what it is not told and takes its status from statusFor', async () => {
    const page = setup({
      cookies: { cookieconsent_status: 'allow', cookieconsent_categories: '1.2' },
      config: { reloadAfterChange: false },
    });
    page.handle.set({ 4: true });
    expect(page.cookies).toEqual({
      cookieconsent_status: 'allow',
      cookieconsent_categories: '1.2.4',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
      pagepulse_q: '1',
    });
    page.handle.set({ 2: false, 4: false });
    expect(page.cookies).toEqual({
      cookieconsent_status: 'deny',
      cookieconsent_categories: '1',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
      pagepulse_q: '1',
    });
    await vi.waitFor(() =>
      expect(logLines(page.calls)).toEqual([
        'processGenericCookieCategories gdpr_generic_cookie_consent=1',
        'processCookieCategory gdpr_cookie_category=4&gdpr_cookie_category_state=0',
        'processGenericCookieCategories gdpr_generic_cookie_consent=0',
        'processCookieCategory gdpr_cookie_category=2&gdpr_cookie_category_state=1',
        'processCookieCategory gdpr_cookie_category=4&gdpr_cookie_category_state=1',
      ]),
    );
  });

  it('open() shows the banner with the current choice as draft, each time afresh', () => {
    const page = setup({ cookies: { cookieconsent_status: 'allow', cookieconsent_categories: '1.3' } });
    page.handle.open();
    expect(page.view()).toMatchObject({ open: true, draft: { 1: true, 2: false, 3: true, 4: false } });
    page.actions().toggle(4, true);
    page.handle.open();
    expect(page.view().draft[4]).toBe(false);
  });

  it('revoke() withdraws consent: Notwendig only, no service, cookies cleared, logged as a decline, reload', async () => {
    const page = setup({
      cookies: {
        cookieconsent_status: 'allow',
        cookieconsent_categories: '1.2.3.4',
        pagepulse_services: 'youtube',
        _ga: 'GA1.1.1',
        keep: '1',
      },
    });
    page.handle.revoke();
    await vi.waitFor(() => expect(page.reload).toHaveBeenCalledTimes(1));
    expect(page.cookies).toEqual({
      cookieconsent_status: 'deny',
      cookieconsent_categories: '1',
      cookieconsent_revision: '0',
      pagepulse_consent_id: ID,
      keep: '1',
    });
    expect(page.consent.get()).toMatchObject({ status: 'deny', services: [], categories: { 2: false, 3: false, 4: false } });
    expect(logLines(page.calls)).toEqual([
      'processGenericCookieCategories gdpr_generic_cookie_consent=0',
      'processCookieCategory gdpr_cookie_category=2&gdpr_cookie_category_state=1',
      'processCookieCategory gdpr_cookie_category=3&gdpr_cookie_category_state=1',
      'processCookieCategory gdpr_cookie_category=4&gdpr_cookie_category_state=1',
    ]);
  });

  it('details: loading, then the sanitized description; a failure is retried on the next opening', async () => {
    const page = setup({ answer: '<p>Zählt <b>Besuche</b><script>x()</script></p>' });
    page.actions().showDetails(3);
    expect(page.view().details).toEqual({ id: 3, state: 'loading', nodes: [] });
    await vi.waitFor(() => expect(page.view().details?.state).toBe('ready'));
    expect(page.view().details?.nodes).toEqual([{ tag: 'p', children: ['Zählt ', 'Besuche'] }]);
    expect(page.calls.at(-1)!.url).toBe(
      '/index.php?option=com_gdpr&task=user.getCookieCategoryDescription&format=raw&gdpr_cookie_category=3',
    );
    page.actions().closeDetails();
    page.actions().showDetails(3);
    expect(page.view().details?.state).toBe('ready');
    expect(page.calls).toHaveLength(1); // cached

    const failing = setup({ answer: null, config: { descriptionUrl: '/desc?x=1' } });
    failing.actions().showDetails(2);
    await vi.waitFor(() => expect(failing.view().details?.state).toBe('error'));
    expect(failing.calls[0]!.url).toBe('/desc?x=1&gdpr_cookie_category=2');
    failing.actions().showDetails(2);
    expect(failing.calls).toHaveLength(2);
  });

  it('the privacy link opens a centred popup, or navigates when popups are blocked', () => {
    const page = setup({ config: { privacyUrl: '/datenschutz' } });
    const event = { preventDefault: vi.fn() };
    page.actions().openPrivacy(event);
    expect(page.win.open).toHaveBeenCalledWith(
      '/datenschutz',
      'pagepulse-privacy',
      'popup,width=700,height=800,left=350,top=100',
    );
    expect(event.preventDefault).toHaveBeenCalled();
    (page.win.open as ReturnType<typeof vi.fn>).mockReturnValueOnce(null);
    const blocked = { preventDefault: vi.fn() };
    page.actions().openPrivacy(blocked);
    expect(blocked.preventDefault).not.toHaveBeenCalled();
  });
});
