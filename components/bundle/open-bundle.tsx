"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Button } from "@/components/ui/button";
import { Field, inputClass } from "@/components/ui/field";
import { openBundleAction } from "@/server/actions/bundle";

/**
 * Open a bundle: a file on this computer, by its path. The server checks it,
 * unpacks it into its state folder and adds it, read-only, beside the live
 * installation and the bundles already open; a refusal changes nothing.
 */
export function OpenBundle() {
  const withSource = useSourceInput();
  const [path, setPath] = useState("");
  // Next's own router: the opened bundle's pages are under its own address, whatever this page's source.
  const router = useRouter();
  const open = useMutation({
    mutationFn: () => unwrap(openBundleAction(withSource({ path }))),
    onSuccess: (opened) => {
      router.push(opened.href);
      router.refresh();
    },
  });
  return (
    <section aria-labelledby="open-heading" className="space-y-3">
      <h2 id="open-heading" className="text-xl font-semibold">
        Open a bundle
      </h2>
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        The bundle opens beside the live data and the bundles already open, read-only, at an address of its own (/b/…);
        it is checked first (its manifest and every checksum) and unpacked into the state folder.
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
