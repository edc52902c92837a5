import { useRef, useState } from 'react';
import type { Announce } from '../announcer';
import { errorText } from '../errors';
import type { Messages } from '../i18n';

/** An action's result: whether it went as asked, and its text in whichever language is shown. */
interface Outcome {
  ok: boolean;
  text: (t: Messages) => string;
}

/**
 * An action's result (a save, an erasure, a revoke): shown beside its form by `<Result>`, and
 * announced through the live region as it arrives. The text follows a language switch; the
 * announcement is in the language of the moment it arrives.
 */
export function useResult(t: Messages, announce: Announce) {
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  // the language when the answer arrives, not when the action began
  const latest = useRef(t);
  latest.current = t;
  const show = (next: Outcome) => {
    setOutcome(next);
    announce(next.text(latest.current));
  };
  return {
    outcome,
    /** Done as asked. */
    done: (text: (t: Messages) => string) => show({ ok: true, text }),
    /** Done, but not as the admin meant it (nothing found to erase): said as a warning. */
    warn: (text: (t: Messages) => string) => show({ ok: false, text }),
    /** Nothing to show (another try began). */
    clear: () => setOutcome(null),
    /** Failed for a reason the view words itself (a field the collector named as wrong). */
    refused: (text: (t: Messages) => string) => show({ ok: false, text }),
    /** Failed: the error in the admin's language, after `prefix` (loading or an action). */
    failed: (error: unknown, prefix: (t: Messages) => string = (t) => t.actionFailed) =>
      show({ ok: false, text: (t) => `${prefix(t)} ${errorText(t, error)}` }),
  };
}

/**
 * The result beside its form; no live region of its own (the shell's one reads it out). `id` lets
 * a field the result is about name it (aria-describedby).
 */
export function Result({ outcome, t, testId, id }: { outcome: Outcome | null; t: Messages; testId: string; id?: string }) {
  return (
    <p className={outcome?.ok === false ? 'error' : 'ok'} data-testid={testId} id={id}>
      {outcome?.text(t)}
    </p>
  );
}
