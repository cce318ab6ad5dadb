import type { ReactNode } from "react";

const TONES = {
  error: "border-red-600 bg-red-50 text-red-950 dark:bg-red-950 dark:text-red-100",
  warning: "border-amber-600 bg-amber-50 text-amber-950 dark:bg-amber-950/60 dark:text-amber-100",
  info: "border-blue-700 bg-blue-50 text-blue-950 dark:bg-blue-950 dark:text-blue-100",
  success: "border-emerald-600 bg-emerald-50 text-emerald-950 dark:bg-emerald-950 dark:text-emerald-100",
} as const;

/** How loud an alert is: errors and warnings interrupt (`role="alert"`), the rest is a polite `status`. */
export type AlertTone = keyof typeof TONES;

/**
 * A boxed message on the page (a refusal, a notice, a confirmation). Errors and
 * warnings are announced at once; info and success wait their turn.
 */
export function Alert({
  tone,
  title,
  children,
  className = "",
  id,
}: {
  tone: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  id?: string;
}) {
  return (
    <div
      id={id}
      role={tone === "error" || tone === "warning" ? "alert" : "status"}
      className={`space-y-2 rounded-md border-l-4 p-3 text-sm break-words ${TONES[tone]} ${className}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      {children}
    </div>
  );
}
