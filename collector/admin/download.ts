import { accepted, ApiError, request } from './api';

/**
 * How long a saved file's object URL is kept after the click that saves it: the browser reads the
 * blob after the click returns (FileSaver.js keeps it 40 s for the same reason); then it is freed.
 */
const REVOKE_AFTER_MS = 60_000;
/** The name when an answer gives none (every export of the collector does). */
const FALLBACK_NAME = 'pagepulse.csv';

/** The file name of a Content-Disposition (`attachment; filename="…"`, as the collector sends it), else null. */
export function fileNameOf(disposition: string | null): string | null {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? null;
}

/**
 * Save a file of the collector (a CSV export) by fetch instead of by following its link: a refusal
 * (a wrong period, the session ended, the database away, a proxy's 413 or 502) is then an ApiError
 * the app says in the admin's language, where the followed link left a failed download named
 * after the address or the collector's JSON. A file is saved with the bytes and under the name
 * the collector gave. An answer cut off midway (the collector failed after its first rows) is a
 * failure too, not a shortened file.
 */
export async function download(href: string): Promise<void> {
  const res = await accepted(await request(href));
  const blob = await res.blob().catch((error: unknown) => {
    throw new ApiError(0, error instanceof Error ? error.message : String(error));
  });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(res.headers.get('content-disposition')) ?? FALLBACK_NAME;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
