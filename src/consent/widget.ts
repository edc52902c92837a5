import type { CategoryId } from '../config';
import type { Context } from '../context';

/** The consent widget's handle for the public API. */
export interface ConsentWidget {
  open(): void;
  revoke(): void;
  set(categories: Partial<Record<CategoryId, boolean>>): void;
  dispose(): void;
}

/** Things that must happen before the DOM is ready (blocking observer, Consent Mode default). STUB. */
export function startConsentEarly(_ctx: Pick<Context, 'doc' | 'win'>): () => void {
  return () => {};
}

/** The consent widget (banner, dialog, logging, blocking). STUB: replaced by the consent surface. */
export function startConsentWidget(_ctx: Context): ConsentWidget | null {
  return null;
}
