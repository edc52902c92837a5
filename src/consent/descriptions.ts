import type { CategoryId, Config } from '../config';
import type { Requester } from '../platform/request';
import { descriptionUrl } from './endpoints';
import { sanitizeFragment, type SafeNode } from './sanitize';

/** Longest description read; a larger answer is cut before sanitizing (no honest one comes near). */
const MAX_DESCRIPTION_CHARS = 64 * 1024;

/** A category description as the dialog shows it. */
export interface CategoryDetails {
  id: CategoryId;
  state: 'loading' | 'error' | 'ready';
  nodes: SafeNode[];
}

/** Fetch a category's description and sanitize it (links resolved against the page); a failed call gives the `error` state. */
export async function fetchDescription(
  request: Requester,
  config: Pick<Config, 'base' | 'descriptionUrl' | 'lang'>,
  id: CategoryId,
  page: Pick<Location, 'href'>,
): Promise<CategoryDetails> {
  const result = await request<string>({ url: descriptionUrl(config, id), responseType: 'text' });
  return result.ok
    ? { id, state: 'ready', nodes: sanitizeFragment(String(result.data).slice(0, MAX_DESCRIPTION_CHARS), page.href) }
    : { id, state: 'error', nodes: [] };
}
