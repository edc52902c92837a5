import { describe, expect, it } from 'vitest';
import { lastStep } from '../../collector/admin/selector';

describe("the clicks view's last step of a stored selector", () => {
  it('splits on `>` as selectors are joined (no spaces)', () => {
    expect(lastStep('div.uk-container>ul.uk-navbar-nav>li:nth-child(2)>a')).toBe('a');
    expect(lastStep('body>div.tm-header>a.uk-logo')).toBe('a.uk-logo');
    expect(lastStep('form#contact>input.uk-input:nth-child(3)')).toBe('input.uk-input:nth-child(3)');
  });

  it("keeps the state suffix with the step, even when the visitor's value holds a `>`", () => {
    expect(lastStep('div.tabs>button.tab:nth-child(2):a>b')).toBe('button.tab:nth-child(2):a>b');
    expect(lastStep('ul.menu>li>a:open')).toBe('a:open');
  });

  it('does not split at an escaped `>` in a class name', () => {
    expect(lastStep('div.a\\>b>span.c\\>d')).toBe('span.c\\>d');
  });

  it("reads PagePulse's older selectors joined with ` > `", () => {
    expect(lastStep('html > body > div.x > a.y::state')).toBe('a.y::state');
  });

  it('gives a one-step selector whole', () => {
    expect(lastStep('a.gallery')).toBe('a.gallery');
    expect(lastStep('')).toBe('');
  });
});
