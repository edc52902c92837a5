import { describe, expect, it } from 'vitest';
import { parseSaveAnswer, parseStreamAnswer as parseOrNull, type StreamAnswer } from '../../src/tracker/answer';

/** A truthy answer's parts (a falsy one is null: tested on its own below). */
const parseStreamAnswer = (raw: unknown): StreamAnswer => {
  const answer = parseOrNull(raw);
  expect(answer).not.toBeNull();
  return answer!;
};

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

  it("takes the original's rule: a truthy non-object (the real server's `[]`) is a success without parts", () => {
    for (const raw of [[], [1], 'html', 42, true, {}]) {
      expect(parseStreamAnswer(raw), JSON.stringify(raw)).toEqual({
        // the answer as it came: the pagepulse:heartbeat event's detail
        raw,
        config: null,
        storing: [],
        loading: [],
        binds: [],
        problems: [],
      });
    }
  });

  it('reads a falsy answer (null, 0, false, "") as null: the end of the loop', () => {
    for (const raw of [null, 0, false, '']) expect(parseOrNull(raw), JSON.stringify(raw)).toBeNull();
  });

  it("reads PHP's empty array `[]` as an empty configparams or data-bind", () => {
    const a = parseStreamAnswer({ configparams: [], 'data-bind': [] });
    expect(a.config).toEqual({});
    expect(a.binds).toEqual([]);
    expect(a.problems).toEqual([]);
    expect(parseStreamAnswer({ 'data-bind': ['x'] }).problems).toEqual(['data-bind']);
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

  it('reads the heatmap save answer: only a non-empty storing list is a failure', () => {
    const success = { errors: [], malformed: false };
    for (const raw of [{ storing: [] }, [], {}, null, 0, 'x', true, { storing: 'nope' }, { storing: {} }])
      expect(parseSaveAnswer(raw), JSON.stringify(raw)).toEqual(success);
    expect(parseSaveAnswer({ storing: [{ corefile: 'a', details: 'b' }] })).toEqual({
      errors: [{ title: 'a', text: 'b' }],
      malformed: false,
    });
    expect(parseSaveAnswer({ storing: [7] })).toEqual({ errors: [], malformed: true });
  });
});
