"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { closeBundleAction } from "@/app/_actions/bundle";
import { unwrap } from "@/components/ui/action-error";

/** Goes back to the dashboard's own roots (a bundle opened in a running dashboard). */
export function CloseBundle() {
  const router = useRouter();
  const close = useMutation({
    mutationFn: () => unwrap(closeBundleAction({})),
    onSuccess: () => {
      router.push("/support");
      router.refresh();
    },
  });
  return (
    <>
      <button type="button" className="underline" onClick={() => close.mutate()} disabled={close.isPending}>
        Close the bundle
      </button>
      {close.error && <span role="alert">{close.error.message}</span>}
    </>
  );
}
