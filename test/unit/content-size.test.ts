import { describe, expect, it } from 'vitest';
import { contentSize } from '../../src/tracker/clicks';

/**
 * contentSize without layout (jsdom and happy-dom have none): the offset sizes and the computed
 * style are stubbed, and every expected value is worked out by hand from jQuery 1.12.4's
 * `.width()`/`.height()` (getWidthOrHeight + augmentWidthOrHeight with extra "content"):
 * - offsetWidth/offsetHeight > 0: that, minus padding and border of the two sides (width: right,
 *   left; height: top, bottom), whatever box-sizing says;
 * - otherwise the computed width/height: a non-px text is returned as text (NaN here), else the
 *   number, minus padding and border only when box-sizing is border-box.
 */
interface Stub {
  offset?: { width?: number; height?: number };
  style: Record<string, string>;
}

function measure({ offset, style }: Stub, name: 'width' | 'height'): number {
  const element = document.createElement('span');
  if (offset)
    for (const [key, value] of Object.entries({ offsetWidth: offset.width, offsetHeight: offset.height }))
      Object.defineProperty(element, key, { value, configurable: true });
  const view = {
    getComputedStyle: (target: Element) => {
      expect(target).toBe(element);
      return { getPropertyValue: (property: string) => style[property] ?? '' };
    },
  } as unknown as Window;
  return contentSize(element, view, name);
}

const BOX = (px: string, border: string) => ({
  'padding-top': px,
  'padding-right': px,
  'padding-bottom': px,
  'padding-left': px,
  'border-top-width': border,
  'border-right-width': border,
  'border-bottom-width': border,
  'border-left-width': border,
});

describe('contentSize: jQuery 1.12 .width()/.height() of a stubbed element', () => {
  it('content box from the offset size: 364 x 34 with 10 px padding and 2 px border is 340 x 10', () => {
    const stub = { offset: { width: 364, height: 34 }, style: { ...BOX('10px', '2px'), 'box-sizing': 'content-box' } };
    expect(measure(stub, 'width')).toBe(340);
    expect(measure(stub, 'height')).toBe(10);
  });

  it('border-box from the offset size is measured the same way: 360 with 10 px padding is 340', () => {
    const stub = { offset: { width: 360, height: 40 }, style: { ...BOX('10px', '0px'), 'box-sizing': 'border-box' } };
    expect(measure(stub, 'width')).toBe(340);
    expect(measure(stub, 'height')).toBe(20);
  });

  it('takes the sides of its own axis only: width right+left, height top+bottom', () => {
    const style = {
      'padding-top': '3px',
      'padding-right': '100px',
      'padding-bottom': '4px',
      'padding-left': '50px',
      'border-top-width': '1px',
      'border-right-width': '7px',
      'border-bottom-width': '2px',
      'border-left-width': '9px',
    };
    expect(measure({ offset: { width: 200, height: 20 }, style }, 'width')).toBe(34); // 200-100-7-50-9
    expect(measure({ offset: { width: 200, height: 20 }, style }, 'height')).toBe(10); // 20-3-1-4-2
  });

  it('keeps fractions of padding and border (an inline box): 30 - 2 x (7.7 + 1.5) = 11.6', () => {
    const style = {
      'padding-right': '7.7px',
      'padding-left': '7.7px',
      'border-right-width': '1.5px',
      'border-left-width': '1.5px',
    };
    expect(measure({ offset: { width: 30, height: 19 }, style }, 'width')).toBeCloseTo(11.6, 12);
    // no top/bottom values at all count as 0
    expect(measure({ offset: { width: 30, height: 19 }, style }, 'height')).toBe(19);
  });

  it('without an offset size (SVG) takes the computed size, content-box: as it is (24, padding ignored)', () => {
    const style = { width: '24px', height: '12.5px', 'box-sizing': 'content-box', ...BOX('5px', '1px') };
    expect(measure({ style }, 'width')).toBe(24);
    expect(measure({ style }, 'height')).toBe(12.5);
    expect(measure({ offset: { width: 0, height: 0 }, style }, 'width')).toBe(24);
  });

  it('without an offset size and border-box: the computed size minus padding and border (50 - 12 = 38)', () => {
    const style = { width: '50px', height: '20px', 'box-sizing': 'border-box', ...BOX('5px', '1px') };
    expect(measure({ style }, 'width')).toBe(38);
    expect(measure({ style }, 'height')).toBe(8);
  });

  it('a non-px computed size is NaN (jQuery returns the text), "auto" is 0', () => {
    expect(measure({ style: { width: '10em', 'box-sizing': 'content-box' } }, 'width')).toBeNaN();
    expect(measure({ style: { height: '50%', 'box-sizing': 'content-box' } }, 'height')).toBeNaN();
    expect(measure({ style: { width: 'auto', 'box-sizing': 'content-box' } }, 'width')).toBe(0);
    // NaN is never over a limit: such a click is not filtered out
    expect(measure({ style: { width: '10em' } }, 'width') > 350).toBe(false);
  });
});
