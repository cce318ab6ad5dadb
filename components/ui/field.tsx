"use client";

import { type ReactNode, useId } from "react";

/** The look of every text box, select and text area (border red while invalid). */
export const inputClass =
  "rounded-md border border-zinc-400 bg-white px-2 py-1.5 aria-[invalid=true]:border-red-700 dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/** What a `Field` hands its control: spread it on the `<input>`, `<textarea>` or `<select>`. */
export interface FieldControl {
  id: string;
  "aria-describedby": string | undefined;
  "aria-invalid": true | undefined;
  /** Right-to-left text (Arabic, Hebrew) is shown in its own direction. */
  dir: "auto";
}

/**
 * One labelled form control: the label, the control (a render prop that gets
 * its id, `aria-describedby`, `aria-invalid` and `dir="auto"`), a description
 * and an error. The error sits under the field in a polite live region that is
 * always present, so a message appearing is announced, and clears as soon as
 * the caller passes `null`.
 */
export function Field({
  label,
  description,
  error,
  invalid = false,
  describedBy = [],
  id,
  className = "space-y-1",
  labelClassName = "block font-medium",
  children,
}: {
  label: ReactNode;
  description?: ReactNode;
  error?: string | null;
  /** Invalid for a reason shown elsewhere (a limit counter named in `describedBy`). */
  invalid?: boolean;
  /** Ids of other elements that describe the control, such as counters. */
  describedBy?: string[];
  /** The control's id, when something outside needs it (a keyboard shortcut, a test). */
  id?: string;
  className?: string;
  labelClassName?: string;
  children: (control: FieldControl) => ReactNode;
}) {
  const generated = useId();
  const controlId = id ?? generated;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const describers = [...describedBy, description ? descriptionId : null, error ? errorId : null].filter(Boolean);
  return (
    <div className={className}>
      <label htmlFor={controlId} className={labelClassName}>
        {label}
      </label>
      {children({
        id: controlId,
        "aria-describedby": describers.length ? describers.join(" ") : undefined,
        "aria-invalid": error || invalid ? true : undefined,
        dir: "auto",
      })}
      {description && (
        <p id={descriptionId} className="text-xs text-zinc-700 dark:text-zinc-300">
          {description}
        </p>
      )}
      <p
        id={errorId}
        role={error ? "alert" : undefined}
        aria-live="polite"
        className="text-sm font-medium text-red-700 empty:hidden dark:text-red-400"
      >
        {error}
      </p>
    </div>
  );
}
