import { describe, expect, it } from 'vitest';
import { parseSaveAnswer, parseStreamAnswer } from '../../src/tracker/answer';

describe('stream answer parsing', () => {
  it('reads numbers sent as strings', () => {
    const a = parseStreamAnswer({
      configparams: { daemonrefresh: '6', enable_debug: '1', daemontimeout: '2', heatmap_max_valid_width: '350' },
    });
    expect(a.config).toEqual({ refreshSec: 6, debug: true, timeoutMin: 2, maxWidth: 350 });
    expect(a.problems).toEqual([]);
  });

  it('drops only the malformed parts and names them', () => {
    const a = parseStreamAnswer({
      configparams: { daemonrefresh: 'soon', daemontimeout: -1 },
      storing: 'nope',
      loading: [{ corefile: 'x.php', details: 42 }],
      'data-bind': { visitors: 7, bad: { nested: true } },
    });
    expect(a.config).toEqual({});
    expect(a.loading).toEqual([{ title: 'x.php', text: '42' }]);
    expect(a.binds).toEqual([['visitors', '7']]);
    expect(a.problems.sort()).toEqual(['configparams.daemonrefresh', 'configparams.daemontimeout', 'data-bind.bad', 'storing']);
  });

  it('treats a non-object as one problem and no config', () => {
    for (const raw of [null, 'html', 42, []]) {
      const a = parseStreamAnswer(raw);
      expect(a.config).toBeNull();
      expect(a.problems).toEqual(['answer']);
    }
  });

  it('keeps hostile text as text, cut to a bounded length', () => {
    const a = parseStreamAnswer({ 'data-bind': { visitors: '<img src=x onerror=alert(1)>' + 'x'.repeat(5000) } });
    expect(a.binds[0]![1].startsWith('<img src=x onerror=alert(1)>')).toBe(true);
    expect(a.binds[0]![1].length).toBe(2000);
  });

  it('does not see inherited keys of a polluted prototype', () => {
    const raw = JSON.parse('{"__proto__": {"configparams": {"daemonrefresh": 1}}, "data-bind": {}}');
    expect(parseStreamAnswer(raw).config).toBeNull();
  });

  it('reads the heatmap save answer', () => {
    expect(parseSaveAnswer({ storing: [] })).toEqual({ errors: [], malformed: false });
    expect(parseSaveAnswer({ storing: [{ corefile: 'a', details: 'b' }] })).toEqual({
      errors: [{ title: 'a', text: 'b' }],
      malformed: false,
    });
    expect(parseSaveAnswer('x').malformed).toBe(true);
  });
});
