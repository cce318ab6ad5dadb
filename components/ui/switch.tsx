"use client";

import { useWriteLock } from "@/components/ui/write-button";

/** An on/off switch (`role="switch"`) with its label; Space and Enter toggle it as a native button does. */
export function Switch({
  checked,
  onChange,
  label,
  showLabel = false,
  disabled = false,
  writes = false,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  /** The accessible name; shown beside the switch when `showLabel`. */
  label: string;
  showLabel?: boolean;
  disabled?: boolean;
  /** It changes a file: disabled, with the reason, in a read-only source. */
  writes?: boolean;
}) {
  const lock = useWriteLock();
  const locked = writes && lock.disabled;
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={showLabel ? undefined : label}
      disabled={disabled || locked}
      aria-describedby={locked ? lock.describedBy : undefined}
      title={locked ? (lock.reason ?? undefined) : undefined}
      onClick={() => onChange(!checked)}
      className="group inline-flex items-center gap-2 rounded-full text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-wait disabled:opacity-60"
    >
      <span
        aria-hidden="true"
        className={`relative inline-block h-5 w-9 shrink-0 rounded-full border transition-colors ${
          checked
            ? "border-blue-700 bg-blue-700 dark:border-blue-400 dark:bg-blue-500"
            : "border-zinc-500 bg-zinc-200 dark:border-zinc-400 dark:bg-zinc-700"
        }`}
      >
        <span
          className={`absolute top-0.5 h-3.5 w-3.5 rounded-full bg-white shadow transition-all ${checked ? "left-4.5" : "left-0.5"}`}
        />
      </span>
      {showLabel ? <span>{label}</span> : null}
      <span className="text-xs text-zinc-700 dark:text-zinc-300" aria-hidden="true">
        {checked ? "On" : "Off"}
      </span>
    </button>
  );
}
