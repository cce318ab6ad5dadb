/** How close a value is to its limit: warning from 90 %, error past the limit. */
export type LimitLevel = "ok" | "warning" | "error";

export function limitLevel(value: number, limit: number): LimitLevel {
  if (value > limit) return "error";
  return value >= limit * 0.9 ? "warning" : "ok";
}

const TONE: Record<LimitLevel, string> = {
  ok: "text-zinc-700 dark:text-zinc-300",
  warning: "font-medium text-amber-800 dark:text-amber-300",
  error: "font-semibold text-red-700 dark:text-red-400",
};

/** A live counter such as "112 / 120 characters — near the limit", in colour and in words, read politely. */
export function LimitCounter({
  id,
  label,
  value,
  limit,
  unit,
  detail,
}: {
  id?: string;
  label: string;
  value: number;
  limit: number;
  unit: string;
  detail?: string;
}) {
  const level = limitLevel(value, limit);
  const words =
    level === "error"
      ? ` — over the limit by ${(value - limit).toLocaleString("en")}`
      : level === "warning"
        ? " — near the limit"
        : "";
  return (
    <p id={id} aria-live="polite" data-level={level} className={`text-xs tabular-nums ${TONE[level]}`}>
      {level !== "ok" && (
        <span aria-hidden="true" className="mr-1">
          {level === "error" ? "✕" : "⚠"}
        </span>
      )}
      {label}: {value.toLocaleString("en")} / {limit.toLocaleString("en")} {unit}
      {words}
      {detail ? ` (${detail})` : ""}
    </p>
  );
}
