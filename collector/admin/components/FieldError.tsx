import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError } from '../api';

/**
 * The form field the collector refused (its answer's `field`: collector/server/edge/http.ts
 * HttpError), one of `fields`: its input marked `aria-invalid`, described by `describedBy` (the
 * message under it, `<FieldMessage>`, or the form's result), and focused after the render that
 * marked it, so focus reads it as invalid with its description; a second refusal focuses it again.
 * The mark goes with `clear`: as its value changes, and as the next submit is sent.
 *
 * `checked()` is the same mark before anything is sent: the form is `noValidate` (no bubble of the
 * browser's, in its language and style), and its inputs' constraints (required, min, max, step,
 * pattern, type) are read here through the constraint validation API; the collector still checks.
 */
export function useFieldError<F extends string>(fields: readonly F[]) {
  // `n` counts refusals, so a second one moves focus there again; `unsent`: marked by `checked()`
  const [invalid, setInvalid] = useState<{ field: F; n: number; unsent: boolean } | null>(null);
  const inputs = useRef<Partial<Record<F, HTMLInputElement | null>>>({});
  useEffect(() => {
    if (invalid) inputs.current[invalid.field]?.focus();
  }, [invalid]);
  /** The field `error` names if it is one of `fields`; else undefined. */
  const named = (error: unknown): F | undefined =>
    error instanceof ApiError ? fields.find((one) => one === error.field) : undefined;
  return {
    /** The field marked, or null. */
    field: invalid?.field ?? null,
    /** The field marked by `checked()` (nothing was sent), or null. */
    unsent: invalid?.unsent ? invalid.field : null,
    named,
    /** Marks the field `error` names if it is one of `fields`, and returns it; else undefined (nothing marked). */
    refused(error: unknown): F | undefined {
      const field = named(error);
      if (field !== undefined) setInvalid((was) => ({ field, n: (was?.n ?? 0) + 1, unsent: false }));
      return field;
    },
    /**
     * Before a submit is sent: the first of `fields` (in their order, the form's) whose input breaks
     * its own constraints (`validity`: valueMissing, rangeUnderflow, rangeOverflow, stepMismatch,
     * patternMismatch, badInput, typeMismatch …) is marked as a refusal is, and returned: the view
     * then says so as it says the collector's refusal, and sends nothing. Undefined: all are valid.
     */
    checked(): F | undefined {
      const field = fields.find((one) => inputs.current[one]?.validity.valid === false);
      if (field !== undefined) setInvalid((was) => ({ field, n: (was?.n ?? 0) + 1, unsent: true }));
      return field;
    },
    /** No field marked; with `field`, only if that one is (another field's value changed). */
    clear(field?: F): void {
      setInvalid((was) => (was === null || (field !== undefined && was.field !== field) ? was : null));
    },
    /** The input's ref and marks, to spread on it; `describedBy` is what describes it while marked. */
    input: (field: F, describedBy: string) => ({
      ref: (input: HTMLInputElement | null) => {
        inputs.current[field] = input;
      },
      'aria-invalid': invalid?.field === field || undefined,
      'aria-describedby': invalid?.field === field ? describedBy : undefined,
    }),
  };
}

/** What `useFieldError` returns: for a form whose refusal arrives in the view around it (the consent log's search). */
export type FieldErrors<F extends string> = ReturnType<typeof useFieldError<F>>;

/**
 * A field `invalid` can mark: its label around the input (`children`, given the marks to spread on
 * it: `invalid.input(field, id)`) and, while it is marked, `message()` under it with `id`, the input's
 * description (`aria-describedby`); outside the label, so the field's name stays its label.
 * `data-testid` is the id. The message is made only while it shows.
 */
export function MarkedField<F extends string>({
  invalid,
  field,
  id,
  label,
  message,
  children,
}: {
  invalid: FieldErrors<F>;
  field: F;
  id: string;
  label: ReactNode;
  message: () => ReactNode;
  children: (marks: ReturnType<FieldErrors<F>['input']>) => ReactNode;
}) {
  return (
    <div className="field">
      <label>
        {label}
        {children(invalid.input(field, id))}
      </label>
      {invalid.field === field && (
        <span className="error field-error" id={id} data-testid={id}>
          {message()}
        </span>
      )}
    </div>
  );
}
