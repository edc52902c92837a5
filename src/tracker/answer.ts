import * as z from '../platform/schema-core';
import { isRecord } from '../platform/record';
import { isFinite, isLooseNumber, lazy, numberWhere, oneOf } from '../platform/schema';

/** Longest debug or badge text kept from a server answer; the rest is cut. */
const MAX_TEXT = 2000;
/** Most items or badge keys read from one answer. */
const MAX_ITEMS = 100;

/** A debug item from the server: `corefile` as the title, `details` as the text. */
export interface ServerItem {
  title: string;
  text: string;
}

/** The parts of a stream answer the tracker uses; missing or malformed parts are left out. */
export interface StreamAnswer {
  /** The answer as the server sent it (its JSON, parsed): the `pagepulse:heartbeat` event's detail. */
  raw: unknown;
  /** Present when the answer carried `configparams` (starts the click recorder). */
  config: {
    refreshSec?: number;
    debug?: boolean;
    timeoutMin?: number;
    maxWidth?: number;
    maxHeight?: number;
  } | null;
  storing: ServerItem[];
  loading: ServerItem[];
  /** `data-bind` pairs: badge key -> text. */
  binds: Array<[string, string]>;
  /** Names of the parts that were present but malformed (for the debug box). */
  problems: string[];
}

/** The answer's schemas, built on the first answer (after the first heartbeat has left). */
const schemas = lazy(() => {
  const positive = numberWhere((n) => n > 0);
  const nonNegative = numberWhere((n) => n >= 0);
  // a number or numeric string (1 = on), or a boolean
  const flag = oneOf(
    (v) => typeof v === 'boolean' || isLooseNumber(v),
    (v) => Number(v) === 1,
  );
  return {
    textish: oneOf(
      (v) => typeof v === 'string' || isFinite(v) || typeof v === 'boolean' || v == null,
      (v) => (v == null ? '' : String(v)).slice(0, MAX_TEXT),
    ),
    list: z.custom<unknown[]>(Array.isArray),
    config: {
      daemonrefresh: ['refreshSec', positive],
      enable_debug: ['debug', flag],
      daemontimeout: ['timeoutMin', nonNegative],
      heatmap_max_valid_width: ['maxWidth', positive],
      heatmap_max_valid_height: ['maxHeight', positive],
    } as const,
  };
});

/** PHP's `json_encode` writes an empty array as `[]`, also where an object was meant. */
const isTable = (value: unknown): value is Record<string, unknown> =>
  isRecord(value) || (Array.isArray(value) && value.length === 0);

/**
 * Read a stream answer part by part, so one malformed part (a hostile or broken server) costs
 * only that part: the rest still drives the loop, and the bad part is named in `problems`.
 * The original client's rule (docs/protocol.md#heartbeat-answer): a falsy JSON value (`null`, `0`,
 * `false`, `""`) ends the loop, so it reads as null here; any truthy one is a success, and one
 * that is not an object (the real server's `[]`) simply has no parts.
 */
export function parseStreamAnswer(raw: unknown): StreamAnswer | null {
  if (!raw) return null;
  const answer: StreamAnswer = { raw, config: null, storing: [], loading: [], binds: [], problems: [] };
  if (!isRecord(raw)) return answer;
  const config = raw.configparams;
  if (isTable(config)) {
    const parsed: NonNullable<StreamAnswer['config']> = {};
    for (const [field, [key, schema]] of Object.entries(schemas().config)) {
      if (config[field] === undefined || config[field] === null || config[field] === '') continue;
      const result = z.safeParse(schema, config[field]);
      if (result.success) (parsed as Record<string, unknown>)[key] = result.data;
      else answer.problems.push(`configparams.${field}`);
    }
    answer.config = parsed;
  } else if (config !== undefined && config !== null) answer.problems.push('configparams');

  for (const part of ['storing', 'loading'] as const) {
    const value = raw[part];
    if (value === undefined || value === null || value === '') continue;
    const result = parseItems(value);
    if (result) answer[part] = result;
    else answer.problems.push(part);
  }

  const binds = raw['data-bind'];
  if (isTable(binds)) {
    for (const key of Object.keys(binds).slice(0, MAX_ITEMS)) {
      const result = z.safeParse(schemas().textish, binds[key]);
      if (result.success) answer.binds.push([key, result.data]);
      else answer.problems.push(`data-bind.${key.slice(0, 40)}`);
    }
  } else if (binds !== undefined && binds !== null) answer.problems.push('data-bind');
  return answer;
}

/**
 * The heatmap save answer, by the original's rule: only a non-empty `storing` list is a failure
 * (its items, or `malformed` when they cannot be read); any other answer is a success (the real
 * server answers a stored click `[]`).
 */
export function parseSaveAnswer(raw: unknown): { errors: ServerItem[]; malformed: boolean } {
  const storing = isRecord(raw) ? raw.storing : null;
  if (!Array.isArray(storing) || storing.length === 0) return { errors: [], malformed: false };
  const errors = parseItems(storing);
  return errors ? { errors, malformed: false } : { errors: [], malformed: true };
}

/**
 * `[{corefile, details}]` as debug items. Read field by field instead of with z.object: zod's
 * object schema brings ~1 KB gzip and a `new Function` fast path that a strict CSP reports.
 */
function parseItems(value: unknown): ServerItem[] | null {
  const { list, textish } = schemas();
  const parsed = z.safeParse(list, value);
  if (!parsed.success) return null;
  const out: ServerItem[] = [];
  for (const entry of parsed.data.slice(0, MAX_ITEMS)) {
    if (!isRecord(entry)) return null;
    const title = z.safeParse(textish, entry.corefile);
    const text = z.safeParse(textish, entry.details);
    if (!title.success || !text.success) return null;
    out.push({ title: title.data, text: text.data });
  }
  return out;
}
