import { beforeEach, describe, expect, it } from 'vitest';
import { escapeIdent, isUnstableClass, selectorFor, stateSuffix } from '../../src/tracker/selector';

/** Build a DOM without innerHTML on the document (the test page is ours, but keep the habit). */
function page(markup: string): void {
  document.body.replaceChildren(document.createRange().createContextualFragment(markup));
}

describe('structural selector', () => {
  beforeEach(() => page(''));

  it('matches exactly the element, through repeated siblings and classes', () => {
    page(`<main class="uk-container"><ul class="gallery">
      <li class="item"><a class="link"><img class="photo" alt="a"></a></li>
      <li class="item"><a class="link"><img class="photo" alt="b"></a></li>
      <li class="item"><a class="link"><img class="photo" alt="c"></a></li></ul></main>`);
    for (const img of Array.from(document.querySelectorAll('img'))) {
      const selector = selectorFor(img);
      const found = document.querySelectorAll(selector);
      expect(found.length).toBe(1);
      expect(found[0]).toBe(img);
      expect(selector.startsWith('html > body:nth-child(2) > ')).toBe(true);
    }
    expect(selectorFor(document.querySelectorAll('img')[1]!)).toBe(
      'html > body:nth-child(2) > main.uk-container:nth-child(1) > ul.gallery:nth-child(1) > li.item:nth-child(2) > a.link:nth-child(1) > img.photo:nth-child(1)',
    );
  });

  it('stays the same while lazy-load and UIkit state classes come and go', () => {
    page(`<div class="uk-card"><img class="lazyload tm-image"><a class="uk-button">x</a></div>`);
    const img = document.querySelector('img')!;
    const button = document.querySelector('a')!;
    const before = [selectorFor(img), selectorFor(button)];
    img.classList.replace('lazyload', 'lazyloaded');
    img.classList.add('uk-animation-fade', 'is-visible');
    button.classList.add('uk-active', 'uk-open', 'hover', 'focus', 'js-toggle', 'uk-sticky-fixed', 'uk-transition-active');
    expect([selectorFor(img), selectorFor(button)]).toEqual(before);
    expect(before[0]).toContain('img.tm-image:nth-child(1)');
  });

  it('escapes odd class names (matching them is checked in Chromium)', () => {
    page(`<div class="w-1/2 md:flex a.b 1st"><span class="é [x]">t</span></div>`);
    expect(selectorFor(document.querySelector('span')!)).toBe(
      'html > body:nth-child(2) > div.w-1\\/2.md\\:flex.a\\.b.\\31 st:nth-child(1) > span.é.\\[x\\]:nth-child(1)',
    );
  });

  it('handles SVG children', () => {
    page(`<svg viewBox="0 0 10 10"><g><path d="M0 0"/><path class="hot" d="M1 1"/></g></svg>`);
    const path = document.querySelectorAll('path')[1]!;
    expect(document.querySelector(selectorFor(path))).toBe(path);
  });

  it('filters state, generated and own classes, keeps layout ones', () => {
    for (const name of ['lazyloaded', 'pre-lazy', 'uk-active', 'uk-sticky-below', 'active', 'is-open', 'has-x', 'js-y', 'css-1x2y3z', 'jsx-2837462', 'pagepulse-x', 'gdprlock-placeholder'])
      expect(isUnstableClass(name), name).toBe(true);
    for (const name of ['uk-card', 'col-md-6', 'uk-width-1-2@m', 'h1', 'mt-4', 'gallery', 'tm-image'])
      expect(isUnstableClass(name), name).toBe(false);
  });

  it('builds the state suffix', () => {
    expect(stateSuffix('Tab 2 <b>')).toBe('::Tab2b');
    expect(stateSuffix('')).toBe('');
    expect(stateSuffix('x'.repeat(100))).toBe('::' + 'x'.repeat(64));
  });

  it('escapes identifiers like CSS.escape', () => {
    expect(escapeIdent('1st')).toBe('\\31 st');
    expect(escapeIdent('-')).toBe('\\-');
    expect(escapeIdent('-2x')).toBe('-\\32 x');
    expect(escapeIdent('a.b')).toBe('a\\.b');
    expect(escapeIdent('w-1/2')).toBe('w-1\\/2');
  });
});
