import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve';
import { claimElement } from '../../src/consent/claim';

describe('claimElement: script types a browser runs', () => {
  const config = resolveConfig([], () => {});
  const script = (type: string | null) => {
    const element = document.createElement('script');
    if (type !== null) element.setAttribute('type', type);
    element.setAttribute('src', 'https://connect.facebook.net/de_DE/fbevents.js');
    return element;
  };

  it('claims every JavaScript MIME type essence of the HTML standard, in any case', () => {
    const runnable = [
      null,
      '',
      'text/javascript',
      'module',
      'application/javascript',
      'application/ecmascript',
      'text/ecmascript',
      'application/x-javascript',
      'application/x-ecmascript',
      'text/x-javascript',
      'Text/X-EcmaScript',
      'text/javascript1.0',
      'text/javascript1.5',
      'text/jscript',
      'text/livescript',
    ];
    for (const type of runnable)
      expect(claimElement(config, script(type), 'https://example.org/')?.service, String(type)).toBe('meta-pixel');
  });

  it('leaves data alone: JSON, templates, text/plain and what no browser runs', () => {
    for (const type of [
      'application/json',
      'application/ld+json',
      'text/plain',
      'text/template',
      'text/javascript1.6',
      'text/javascript; charset=utf-8',
    ])
      expect(claimElement(config, script(type), 'https://example.org/'), type).toBeNull();
  });
});
