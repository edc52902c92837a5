import { describe, expect, it } from 'vitest';
import { MAX_REFERRER_CHARS, MAX_REFERRER_PATH_CHARS, pageAddress, referralOf } from '../../collector/server/visitor/page';
import { SOURCES, sourceOf } from '../../collector/server/visitor/sources';

const NO_UTM = { utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null };

describe('page addresses as stored', () => {
  it("drops the fragment and the bundle's QA switches; keeps every other parameter byte for byte", () => {
    expect(pageAddress('https://site.test/?pagepulse-debug=1#kontakt')).toEqual({ page: 'https://site.test/', utm: NO_UTM });
    expect(pageAddress('https://site.test/a?id=3&pagepulse-heatmap&q=a+b%20c&x=%E2%9C%93').page).toBe(
      'https://site.test/a?id=3&q=a+b%20c&x=%E2%9C%93',
    );
    expect(pageAddress('https://site.test/a?').page).toBe('https://site.test/a');
    expect(pageAddress('/relative?pagepulse-debug=1&id=4').page).toBe('/relative?id=4');
  });

  it('keeps utm_* apart: the first non-empty value of each, decoded', () => {
    expect(
      pageAddress('https://site.test/?utm_source=news+letter&utm_source=other&utm_medium=&utm_campaign=fr%C3%BChling'),
    ).toEqual({
      page: 'https://site.test/',
      utm: { ...NO_UTM, utm_source: 'news letter', utm_campaign: 'frühling' },
    });
    // a broken escape stays as sent instead of failing the heartbeat
    expect(pageAddress('https://site.test/?utm_term=100%&a=1').utm.utm_term).toBe('100%');
  });

  it('a referral only from an http(s) address of another host than the page: host, path (no query, no fragment), source', () => {
    expect(referralOf('https://www.google.de/search?q=x#top', 'https://site.test/')).toEqual({
      host: 'www.google.de',
      path: '/search',
      source: 'Google',
    });
    // the browsers' default policy gives another site's origin only: its path is `/`
    expect(referralOf('https://mail.example.net/', 'https://site.test/a')).toEqual({
      host: 'mail.example.net',
      path: '/',
      source: 'mail.example.net',
    });
    expect(referralOf('https://site.test/other', 'https://site.test/')).toBeNull();
    expect(referralOf('http://site.test:8080/', 'https://site.test/')).toBeNull(); // the site itself, before its redirect to https
    expect(referralOf(null, 'https://site.test/')).toBeNull();
    expect(referralOf('', 'https://site.test/')).toBeNull();
    expect(referralOf('not an address', 'https://site.test/')).toBeNull();
    expect(referralOf('android-app://com.google.android.gm/', 'https://site.test/')).toBeNull();
    expect(referralOf('javascript:alert(1)', 'https://site.test/')).toBeNull();
    expect(referralOf('file:///etc/passwd', 'https://site.test/')).toBeNull();
    expect(referralOf('https://a.test/', '/relative')).toBeNull();
  });

  it('bounds what a client can make it store', () => {
    const long = `https://a.test/${'p'.repeat(MAX_REFERRER_CHARS)}`;
    expect(referralOf(long, 'https://site.test/')).toBeNull();
    const path = `/${'p'.repeat(MAX_REFERRER_CHARS - 40)}`;
    expect(referralOf(`https://a.test${path}`, 'https://site.test/')!.path).toBe(path.slice(0, MAX_REFERRER_PATH_CHARS));
  });

  it('groups known hosts by name, the rest under their host without www.', () => {
    const cases: Array<[string, string]> = [
      ['www.google.com', 'Google'],
      ['google.de', 'Google'],
      ['news.google.co.uk', 'Google'],
      ['www.google.com.au', 'Google'],
      ['mail.google.com', 'Gmail'],
      ['cn.bing.com', 'Bing'],
      ['duckduckgo.com', 'DuckDuckGo'],
      ['www.ecosia.org', 'Ecosia'],
      ['de.search.yahoo.com', 'Yahoo'],
      ['yandex.ru', 'Yandex'],
      ['www.baidu.com', 'Baidu'],
      ['www.qwant.com', 'Qwant'],
      ['l.facebook.com', 'Facebook'],
      ['m.facebook.com', 'Facebook'],
      ['l.instagram.com', 'Instagram'],
      ['t.co', 'X (Twitter)'],
      ['x.com', 'X (Twitter)'],
      ['www.linkedin.com', 'LinkedIn'],
      ['de.pinterest.com', 'Pinterest'],
      ['www.youtube.com', 'YouTube'],
      ['old.reddit.com', 'Reddit'],
      ['WWW.Example.ORG', 'example.org'],
      ['mail.example.net', 'mail.example.net'],
      // look-alikes are not the site they imitate
      ['google.example.com', 'google.example.com'],
      ['notgoogle.com', 'notgoogle.com'],
      ['mybing.com', 'mybing.com'],
      ['t.com', 't.com'],
    ];
    for (const [host, name] of cases) expect(sourceOf(host), host).toBe(name);
    // every entry of the table is reached by at least one host above
    expect(SOURCES.filter(([name]) => !cases.some(([, n]) => n === name)).map(([name]) => name)).toEqual(['Outlook.com']);
    expect(sourceOf('outlook.live.com')).toBe('Outlook.com');
  });
});
