import { useId, useState, type MouseEvent, type ReactNode, type Ref } from 'react';
import type { Announce } from '../announcer';
import { download } from '../download';
import type { Messages } from '../i18n';
import { useResult } from './Result';

/**
 * A link to a file of the collector (a CSV export). A plain click saves it through the app
 * (download.ts), so a failure is said in the admin's language: beside the link, as its
 * description, and read out by the live region; focus stays on the link to try again. The link
 * stays a link: its address can be copied, and a click with a modifier key or the middle button
 * is the browser's own. While the file loads, the link says so and a second click waits for it.
 */
export function DownloadLink({
  t,
  announce,
  href,
  className,
  testId,
  linkRef,
  children,
}: {
  t: Messages;
  announce: Announce;
  href: string;
  className?: string;
  testId: string;
  linkRef?: Ref<HTMLAnchorElement>;
  children: ReactNode;
}) {
  const result = useResult(t, announce);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    result.clear();
    download(href).then(
      () => setBusy(false),
      (error: unknown) => {
        setBusy(false);
        result.failed(error, (t) => t.downloadFailed);
      },
    );
  };
  const failed = result.outcome !== null;
  return (
    <>
      <a
        className={className}
        href={href}
        download
        ref={linkRef}
        data-testid={testId}
        onClick={click}
        aria-describedby={failed ? id : undefined}
        aria-disabled={busy || undefined}
      >
        {children}
      </a>
      {busy && (
        <span className="download-note hint" data-testid={`${testId}-busy`}>
          {t.loading}
        </span>
      )}
      {failed && (
        <span className="download-note error" id={id} data-testid={`${testId}-error`}>
          {result.outcome?.text(t)}
        </span>
      )}
    </>
  );
}
