"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { openBundleAction } from "@/app/_actions/bundle";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";

/**
 * Open a bundle: a file on this computer, by its path. The server checks it,
 * unpacks it into its state folder and shows it read-only until it is closed.
 */
export function OpenBundle() {
  const [path, setPath] = useState("");
  const router = useRouter();
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
        {/* min-w-0: a flex item, the field would take the input's 24rem however narrow the window (10 px too wide at 390) */}
        <Field
          label="Bundle file on this computer"
          labelClassName="block text-sm"
          className="min-w-0 max-w-full space-y-1"
          error={open.error?.message}
        >
          {(control) => (
            <input
              {...control}
              className={`${inputClass} block w-96 max-w-full text-sm`}
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder="/path/to/oda-support.tar.gz"
            />
          )}
        </Field>
        <Button type="submit" disabled={!path || open.isPending}>
          {open.isPending ? "Checking…" : "Open bundle"}
        </Button>
      </form>
    </section>
  );
}
