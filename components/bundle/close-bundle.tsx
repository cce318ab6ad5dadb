"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { BUNDLES_PAGE } from "@/lib/routes";
import { closeBundleAction } from "@/server/actions/bundle";

/**
 * Closes one opened bundle, and only it; the live Bundles page is shown next
 * (the bundle's own addresses are gone with it).
 */
export function CloseBundle({ id, label = "Close the bundle" }: { id: string; label?: string }) {
  const withSource = useSourceInput();
  // Next's own router: the page after closing is the live one, outside the closed bundle's addresses.
  const router = useRouter();
  const close = useMutation({
    mutationFn: () => unwrap(closeBundleAction(withSource({ id }))),
    onSuccess: () => {
      router.push(BUNDLES_PAGE);
      router.refresh();
    },
  });
  return (
    <>
      <button type="button" className="underline" onClick={() => close.mutate()} disabled={close.isPending}>
        {label}
      </button>
      {close.error && <span role="alert">{close.error.message}</span>}
    </>
  );
}
