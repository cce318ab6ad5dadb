"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { openBundleAction } from "@/app/_actions/bundle";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";

/**
 * Open a bundle: a file on this computer, by its path. The server checks it,
 * unpacks it into its state folder and shows it read-only until it is closed.
 */
export function OpenBundle() {
  const [path, setPath] = useState("");
  const router = useRouter();
  const errorId = useId();
  const open = useMutation({
    mutationFn: () => unwrap(openBundleAction({ path })),
    onSuccess: () => {
      router.push("/");
      router.refresh();
    },
  });
  return (
    <section aria-labelledby="open-heading" className="space-y-3">
      <h2 id="open-heading" className="text-xl font-semibold">
        Open a bundle
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        Every page then shows the bundle, read-only, until you close it; the bundle is checked first (its manifest and
        every checksum) and unpacked into the state folder.
      </p>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          open.mutate();
        }}
      >
        <label className="text-sm">
          Bundle file on this computer
          <input
            dir="auto"
            className="mt-1 block w-96 max-w-full rounded border border-zinc-400 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/path/to/oda-support.tar.gz"
            aria-describedby={open.error ? errorId : undefined}
          />
        </label>
        <Button type="submit" disabled={!path || open.isPending}>
          {open.isPending ? "Checking…" : "Open bundle"}
        </Button>
      </form>
      <p id={errorId} role="alert" aria-live="polite" className="text-red-700 dark:text-red-400">
        {open.error?.message}
      </p>
    </section>
  );
}
