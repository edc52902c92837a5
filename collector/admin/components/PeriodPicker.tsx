import { useState, type FormEvent } from 'react';
import type { Announce } from '../announcer';
import type { PeriodInfo } from '../api';
import { bucketLabel, todayIn } from '../format';
import { MarkedField, useFieldError } from './FieldError';
import type { Lang, Messages } from '../i18n';
import { PERIOD_NAMES, type PeriodChoice } from '../period';

/** A custom range's days, its fields (and their labels' keys). */
const DAYS = ['from', 'to'] as const;

/**
 * The period every view shows: today, 7 or 30 days, 12 months, or a custom range of days in the
 * site's time zone. A preset applies at once; a custom range on "Apply" (both days required, none
 * after today, "to" not before "from": a day at fault is marked under it and said, nothing applied).
 */
export function PeriodPicker({
  t,
  lang,
  value,
  onChange,
  timeZone,
  announce,
}: {
  t: Messages;
  lang: Lang;
  value: PeriodChoice;
  onChange: (c: PeriodChoice) => void;
  /** The site's time zone (its today is the last day the collector accepts); null until known. */
  timeZone: string | null;
  /** Says a day at fault (the app's live region). */
  announce: Announce;
}) {
  // a day at fault, by the fields' own constraints: marked, described by the message under it, focused
  const invalid = useFieldError(DAYS);
  const [draft, setDraft] = useState(value);
  // a new period from outside (a preset applied, Back, a bookmark) resets the draft; the select stays
  // the same element, so it keeps focus: an arrow key on a closed select changes it at once in
  // Chromium, and a remount (a `key` of the period) dropped focus at every step
  const [shown, setShown] = useState(value);
  if (shown.name !== value.name || shown.from !== value.from || shown.to !== value.to) {
    setShown(value);
    setDraft(value);
  }
  // no day after the site's today (the collector refuses a range past it; the browser's can be another day)
  const today = todayIn(timeZone);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const wrong = invalid.checked();
    if (wrong !== undefined) return announce(t.dayFailed(t[wrong]));
    onChange(draft);
  };
  const day = (date: string) => bucketLabel(date, lang);
  // what the message under a day says: its own min and max
  const bounds = { from: { min: '', max: today }, to: { min: draft.from, max: today } };
  return (
    <form className="period filters" onSubmit={apply} aria-label={t.period} noValidate>
      <label>
        {t.period}
        <select
          value={draft.name}
          data-testid="period"
          onChange={(e) => {
            const next = { ...draft, name: e.target.value as PeriodChoice['name'] };
            setDraft(next);
            // the days' fields go (or are new): no mark left on them
            invalid.clear();
            if (next.name !== 'custom') onChange(next);
          }}
        >
          {PERIOD_NAMES.map((name) => (
            <option key={name} value={name}>
              {t.periods[name]}
            </option>
          ))}
        </select>
      </label>
      {draft.name === 'custom' && (
        <>
          {DAYS.map((field) => (
            <MarkedField
              key={field}
              invalid={invalid}
              field={field}
              id={`period-${field}-error`}
              label={t[field]}
              message={() => t.dayInvalid(bounds[field].min ? day(bounds[field].min) : null, day(bounds[field].max))}
            >
              {(marks) => (
                <input
                  {...marks}
                  type="date"
                  required
                  value={draft[field]}
                  min={bounds[field].min || undefined}
                  max={bounds[field].max}
                  onChange={(e) => {
                    setDraft({ ...draft, [field]: e.target.value });
                    invalid.clear(field);
                  }}
                />
              )}
            </MarkedField>
          ))}
          <div className="buttons">
            <button type="submit">{t.apply}</button>
          </div>
        </>
      )}
    </form>
  );
}

/** "14.05.2025 – 20.05.2025, compared with ... (time zone Europe/Berlin)": what the figures cover. */
export function PeriodNote({
  t,
  lang,
  period,
  compared = true,
}: {
  t: Messages;
  lang: Lang;
  period: PeriodInfo;
  /** False where nothing is compared (the consent log): the period's days only. */
  compared?: boolean;
}) {
  const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const range = ([from, to]: [string, string]) =>
    from === to
      ? day.format(new Date(`${from}T00:00:00Z`))
      : day.formatRange(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`));
  return (
    <p className="hint" data-testid="period-note">
      {compared
        ? t.periodShown(range(period.days.current), range(period.days.previous), period.timeZone)
        : t.periodOnly(range(period.days.current), period.timeZone)}
    </p>
  );
}
