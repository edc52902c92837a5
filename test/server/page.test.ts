import { describe, expect, it } from 'vitest';
import { pageAddress, referrerHost } from '../../collector/server/visitor/page';

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

  it('a referring host only from another host than the page', () => {
    expect(referrerHost('https://www.google.com/search?q=x', 'https://site.test/')).toBe('www.google.com');
    expect(referrerHost('https://site.test/other', 'https://site.test/')).toBeNull();
    expect(referrerHost('http://site.test/', 'https://site.test/')).toBeNull(); // the site itself, before its redirect to https
    expect(referrerHost(undefined, 'https://site.test/')).toBeNull();
    expect(referrerHost('android-app://com.google/', 'https://site.test/')).toBeNull();
    expect(referrerHost('https://a.test/', '/relative')).toBeNull();
  });
});
