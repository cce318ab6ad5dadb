"use client";

import type { ComponentProps } from "react";
import { useSource } from "@/components/shell/source";
import { Button } from "@/components/ui/button";

/** The id of the sentence saying why a source cannot be changed (in its banner), which disabled controls point to. */
export const READ_ONLY_REASON_ID = "source-read-only";

/**
 * What a control that writes gets in a source that cannot write: disabled from
 * the start, described by the banner's sentence (the server refuses it anyway).
 */
export function useWriteLock(): { disabled: boolean; describedBy: string | undefined; reason: string | null } {
  const { readOnly } = useSource();
  return { disabled: readOnly !== null, describedBy: readOnly ? READ_ONLY_REASON_ID : undefined, reason: readOnly };
}

/** A `Button` that changes files: disabled, with the reason, in a read-only source (a support bundle). */
export function WriteButton({ disabled, title, ...props }: ComponentProps<typeof Button>) {
  const lock = useWriteLock();
  return (
    <Button
      {...props}
      disabled={lock.disabled || disabled}
      aria-describedby={lock.describedBy ?? props["aria-describedby"]}
      title={lock.reason ?? title}
    />
  );
}
