import { beforeEach, describe, expect, it } from 'vitest';
import { withoutState } from '../../src/ui/heatmap';
import {
  classNames,
  cssEscape,
  isOriginalSkippedClass,
  isUnstableClass,
  selectorFor,
  stateSuffix,
} from '../../src/tracker/selector';

/** Build a DOM without innerHTML on the document (the test page is ours, but keep the habit). */
function page(markup: string): void {
  document.body.replaceChildren(document.createRange().createContextualFragment(markup));
}

const one = (css: string): Element => document.querySelector(css)!;
const all = (css: string): Element[] => Array.from(document.querySelectorAll(css));

/** The selector must name exactly its element in the document. */
function expectExact(element: Element): string {
  const selector = selectorFor(element);
  const found = document.querySelectorAll(selector);
  expect(found.length, selector).toBe(1);
  expect(found[0], selector).toBe(element);
  return selector;
}

describe('heatmap selector (protocol section 4)', () => {
  beforeEach(() => page(''));

  it('walks from below body, `>` without spaces, nth-child only where the step is ambiguous', () => {
    page(`<div class="container"><ul class="nav menu">
      <li class="item-101"><a href="#1">1</a></li><li class="item-102"><a href="#2">2</a></li>
      <li><a href="#3">3</a></li><li><a href="#4">4</a></li></ul></div>`);
    expect(selectorFor(all('a')[2]!)).toBe('div.container>ul.nav.menu>li:nth-child(3)>a');
    expect(selectorFor(all('a')[0]!)).toBe('div.container>ul.nav.menu>li.item-101>a');
    expect(selectorFor(one('ul'))).toBe('div.container>ul.nav.menu');
    for (const a of all('a')) expectExact(a);
  });

  it('counts k among ALL element children and matches siblings on tag and classes', () => {
    page(`<section><h2>t</h2><p class="lead">a</p><p class="lead x">b</p><p>c</p><span class="lead">d</span></section>`);
    // p.lead matches both p.lead and p.lead.x: ambiguous, k counts the h2 too
    expect(selectorFor(all('p')[0]!)).toBe('section>p.lead:nth-child(2)');
    expect(selectorFor(all('p')[1]!)).toBe('section>p.lead.x');
    // plain `p` matches every p: ambiguous
    expect(selectorFor(all('p')[2]!)).toBe('section>p:nth-child(4)');
    expect(selectorFor(one('span'))).toBe('section>span.lead');
    expect(selectorFor(one('h2'))).toBe('section>h2');
    for (const element of all('section *')) expectExact(element);
  });

  it('leaves out the classes the original leaves out, keeps the class text order and repeats', () => {
    page(
      `<div class="  box\t 2024 a.b md:flex x[1] k=v c,d vs-highlight vs-pre-highlight  box tail"><i class="icon">i</i></div>`,
    );
    expect(selectorFor(one('i'))).toBe('div.box.box.tail>i.icon');
    for (const name of ['2024', 'a.b', 'md:flex', 'x[1]', 'k=v', 'c,d', 'vs-highlight', 'vs-pre-highlight'])
      expect(isOriginalSkippedClass(name), name).toBe(true);
    for (const name of ['h1', 'item-101', 'col-md-6', 'uk-width-1-2@m']) expect(isOriginalSkippedClass(name), name).toBe(false);
  });

  it("gives an element whose className is an SVGAnimatedString no class (jsdom: the SVG's own className; happy-dom, whose SVG className is a plain string: an SVGAnimatedString-shaped object put on the elements); both assert the same literals", () => {
    page(
      `<button class="btn"><svg class="icon" viewBox="0 0 10 10"><path class="a" d="M0 0"/><path class="b" d="M1 1"/></svg></button>`,
    );
    const svgs = all('svg, path');
    const jsdom = navigator.userAgent.includes('jsdom');
    // what each DOM gives, stated: jsdom the standard SVGAnimatedString, happy-dom a string
    expect(svgs.map((e) => typeof (e as { className?: unknown }).className)).toEqual(
      jsdom ? ['object', 'object', 'object'] : ['string', 'string', 'string'],
    );
    if (!jsdom)
      for (const element of svgs) {
        const baseVal = element.getAttribute('class') ?? '';
        Object.defineProperty(element, 'className', { value: { baseVal, animVal: baseVal }, configurable: true });
      }
    expect(classNames(one('svg'))).toEqual([]);
    expect(selectorFor(one('svg'))).toBe('button.btn>svg');
    expect(selectorFor(all('path')[1]!)).toBe('button.btn>svg>path:nth-child(2)');
    expect(classNames(one('button'))).toEqual(['btn']);
    expectExact(all('path')[1]!);
  });

  it('prefixes body> only when the plain chain also matches deeper in the page', () => {
    page(`<div class="card"><a class="more">1</a></div><main><div class="card"><a class="more">2</a></div></main>`);
    const [outer, inner] = all('a.more');
    expect(selectorFor(outer!)).toBe('body>div.card>a.more');
    expect(selectorFor(inner!)).toBe('main>div.card>a.more');
    expectExact(outer!);
    expectExact(inner!);
  });

  it('is empty for body, html and detached elements', () => {
    expect(selectorFor(document.body)).toBe('');
    expect(selectorFor(document.documentElement)).toBe('');
    expect(selectorFor(document.createElement('div'))).toBe('');
  });

  it("leaves out purely numeric classes as jQuery 1.12.4's $.isNumeric tells them", () => {
    for (const name of ['7', '2024', '1e3', '+5', '-5', '0x1f', '0b11', '0o7', '1E-2', '.5'])
      expect(isOriginalSkippedClass(name), name).toBe(true);
    for (const name of ['5px', 'Infinity', '-Infinity', 'NaN', 'e3', '1e', '0x', 'x1', 'item-101', '1-2'])
      expect(isOriginalSkippedClass(name), name).toBe(false);
    // (`5px`, kept and escaped as `\35 px`, is left to the browser suite: happy-dom cannot match hex escapes)
    page(`<p class="7 1e3 +5 -5 0x1f Infinity x"><b>t</b></p>`);
    expect(selectorFor(one('b'))).toBe('p.Infinity.x>b');
    expectExact(one('b'));
  });

  it("keeps state classes by default, as the original does (Joomla's protostar menu and breadcrumb)", () => {
    page(`<ul class="nav menu mod-list"><li class="item-101 default current active"><a href="/">Home</a></li>
      <li class="item-102"><a href="/b">B</a></li></ul>
      <ul class="breadcrumb"><li>You are here: </li><li class="active"><span>Home</span></li></ul>`);
    expect(selectorFor(one('li.current a'))).toBe('ul.nav.menu.mod-list>li.item-101.default.current.active>a');
    expect(selectorFor(one('li.active span'))).toBe('ul.breadcrumb>li.active>span');
    // stable: Joomla's own state classes out, and the nth-child decision on the filtered step
    expect(selectorFor(one('li.current a'), true)).toBe('ul.nav.menu.mod-list>li.item-101.default>a');
    expect(selectorFor(one('li.active span'), true)).toBe('ul.breadcrumb>li:nth-child(2)>span');
    for (const element of [one('li.current a'), one('li.active span')]) {
      expectExact(element);
      const stable = selectorFor(element, true);
      expect(document.querySelectorAll(stable)).toHaveLength(1);
    }
  });

  it('stays the same while state classes come and go (the stable mode)', () => {
    page(`<nav class="navbar"><ul class="nav"><li class="dropdown"><a class="dropdown-toggle">M</a>
      <ul class="dropdown-menu"><li><a class="item">1</a></li><li><a class="item">2</a></li></ul></li><li><a>x</a></li></ul></nav>
      <div class="uk-card"><img class="lazyload tm-image"><a class="uk-button">x</a></div>`);
    const item = all('a.item')[1]!;
    const img = one('img');
    const button = one('a.uk-button');
    const stable = (e: Element) => selectorFor(e, true);
    const before = [stable(item), stable(img), stable(button)];
    // the original mode would change with them
    const original = [selectorFor(item), selectorFor(img), selectorFor(button)];
    one('li.dropdown').classList.add('open', 'show', 'nav-hover', 'active');
    one('ul.dropdown-menu').classList.add('show', 'in', 'uk-open');
    one('nav').classList.add('uk-navbar-sticky', 'uk-sticky-fixed', 'uk-active', 'affix');
    img.classList.replace('lazyload', 'lazyloaded');
    img.classList.add('uk-animation-fade', 'is-visible');
    button.classList.add('uk-active', 'uk-open', 'hover', 'focus', 'js-toggle', 'uk-transition-active', 'collapsed');
    // a sibling that gains a state class does not change the nth-child decision either
    all('ul.nav > li')[1]!.classList.add('open', 'active');
    expect([stable(item), stable(img), stable(button)]).toEqual(before);
    expect([selectorFor(item), selectorFor(img), selectorFor(button)]).not.toEqual(original);
    expect(before).toEqual([
      'nav.navbar>ul.nav>li.dropdown>ul.dropdown-menu>li:nth-child(2)>a.item',
      'div.uk-card>img.tm-image',
      'div.uk-card>a.uk-button',
    ]);
  });

  it('filters state, generated and own classes in the stable mode, keeps layout ones', () => {
    for (const name of [
      'current',
      'alias-parent-active',
      'lazyloaded',
      'pre-lazy',
      'uk-active',
      'uk-open',
      'uk-sticky-below',
      'uk-navbar-sticky',
      'uk-offcanvas-page',
      'uk-modal-page',
      'uk-lightbox-page',
      'uk-togglable-enter',
      'active',
      'open',
      'show',
      'in',
      'collapsing',
      'collapsed',
      'modal-open',
      'nav-hover',
      'affix',
      'affix-top',
      'hiding',
      'is-open',
      'has-x',
      'js-y',
      'css-1x2y3z',
      'jsx-2837462',
      'pagepulse-x',
      'gdprlock-placeholder',
    ])
      expect(isUnstableClass(name), name).toBe(true);
    for (const name of [
      'uk-card',
      'uk-navbar-container',
      'uk-drop',
      'uk-dropdown',
      'uk-drop-grid',
      'collapse',
      'fade',
      'modal',
      'dropdown',
      'col-md-6',
      'uk-width-1-2@m',
      'h1',
      'mt-4',
      'h-100vh',
      'item-101',
      'item-1234',
      'gallery',
      'tm-image',
    ])
      expect(isUnstableClass(name), name).toBe(false);
  });

  it('escapes class names that are not identifiers (our departure)', () => {
    // (a leading digit, `\31 st`, is left to the CSS.escape test: happy-dom cannot match hex escapes)
    page(`<div class="w-1/2 uk-width-1-2@m é"><span class="x!">t</span></div>`);
    expect(selectorFor(one('span'))).toBe('div.w-1\\/2.uk-width-1-2\\@m.é>span.x\\!');
    expectExact(one('span'));
  });

  it('builds the state suffix with one colon, 200 characters at most, the value as it is', () => {
    expect(stateSuffix('Tab 2 <b>')).toBe(':Tab 2 <b>');
    expect(stateSuffix('')).toBe('');
    expect(stateSuffix(null)).toBe('');
    expect(stateSuffix('x'.repeat(300))).toBe(':' + 'x'.repeat(200));
  });

  it("escapes identifiers as CSSOM serialises them (the environment's CSS.escape, which selectorFor calls)", () => {
    expect(cssEscape('1st')).toBe('\\31 st');
    expect(cssEscape('-')).toBe('\\-');
    expect(cssEscape('-2x')).toBe('-\\32 x');
    expect(cssEscape('a.b')).toBe('a\\.b');
    expect(cssEscape('w-1/2')).toBe('w-1\\/2');
  });

  it("strips the state suffix of stored selectors for the overlay, both clients' and the older format", () => {
    expect(withoutState('div.container>ul.nav.menu>li:nth-child(3)>a:Reiter 2: offen')).toBe(
      'div.container>ul.nav.menu>li:nth-child(3)>a',
    );
    expect(withoutState('div.container>ul.nav.menu>li:nth-child(3)>a')).toBe('div.container>ul.nav.menu>li:nth-child(3)>a');
    expect(withoutState('html > body:nth-child(2) > main:nth-child(1) > a:nth-child(3)::Tab2')).toBe(
      'html > body:nth-child(2) > main:nth-child(1) > a:nth-child(3)',
    );
    expect(withoutState('div.md\\:flex>a:x')).toBe('div.md\\:flex>a');
  });
});
