"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { bundleJobAction, previewBundleAction, startBundleAction } from "@/app/_actions/bundle";
import { unwrap } from "@/components/ui/action-error";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { INITIAL_SCOPE, ScopeFields, type ScopeForm, toScope } from "./scope-fields";

const size = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;

/**
 * Support bundle, step by step: choose, preview what goes in (files, sizes,
 * how many values each kind replaces) before anything is written, then write
 * it with a progress bar and download it.
 */
export function CreateBundle() {
  const [form, setForm] = useState<ScopeForm>(INITIAL_SCOPE);
  const [job, setJob] = useState<string | null>(null);
  const preview = useMutation({ mutationFn: () => unwrap(previewBundleAction(toScope(form))) });
  const start = useMutation({
    mutationFn: () => unwrap(startBundleAction(toScope(form))),
    onSuccess: (data) => setJob(data.id),
  });
  const progress = useQuery({
    queryKey: ["bundle-job", job],
    queryFn: () => unwrap(bundleJobAction({ id: job })),
    enabled: job !== null,
    refetchInterval: (q) => (q.state.data && q.state.data.state !== "running" ? false : 400),
  });
  const status = progress.data;
  const change = (v: ScopeForm) => {
    setForm(v);
    preview.reset();
    setJob(null);
  };

  return (
    <section aria-labelledby="create-heading" className="space-y-4">
      <h2 id="create-heading" className="text-xl font-semibold">
        Create a support bundle
      </h2>
      <ScopeFields value={form} onChange={change} />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => preview.mutate()} disabled={preview.isPending}>
          {preview.isPending ? "Checking…" : "Preview"}
        </Button>
        <Button
          variant="primary"
          onClick={() => start.mutate()}
          disabled={!preview.data || start.isPending || status?.state === "running"}
        >
          Create bundle
        </Button>
      </div>
      {(preview.error || start.error) && <Alert tone="error">{(preview.error ?? start.error)?.message}</Alert>}
      {preview.data && (
        <section className="space-y-2" aria-labelledby="preview-heading">
          <h3 id="preview-heading" className="font-semibold">
            What goes in
          </h3>
          <p>
            {preview.data.counts.files} files, {size(preview.data.counts.bytes)}: {preview.data.counts.chats} chats,{" "}
            {preview.data.counts.memories} memories, {preview.data.counts.problems} problems in the doctor report.
          </p>
          <table className="min-w-72 text-sm">
            <caption className="text-left font-medium">Values each redaction replaces</caption>
            <tbody>
              {Object.entries(preview.data.counts.replaced).length === 0 && (
                <tr>
                  <td>Nothing is replaced.</td>
                </tr>
              )}
              {Object.entries(preview.data.counts.replaced).map(([kind, n]) => (
                <tr key={kind}>
                  <th scope="row" className="pr-4 text-left font-normal">
                    {kind}
                  </th>
                  <td>{n}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <details>
            <summary className="cursor-pointer">Files ({preview.data.counts.files})</summary>
            <ul className="max-h-64 overflow-auto font-mono text-xs">
              {preview.data.files.map((f) => (
                <li key={f.path}>
                  {f.path} — {size(f.size)}
                </li>
              ))}
              {preview.data.more > 0 && <li>…and {preview.data.more} more</li>}
            </ul>
          </details>
        </section>
      )}
      {status && status.state === "running" && (
        <Progress
          label={status.progress.phase === "reading" ? "Reading and redacting" : "Writing the bundle"}
          done={status.progress.done}
          total={status.progress.total || null}
        />
      )}
      {status?.state === "failed" && <Alert tone="error">{status.error}</Alert>}
      {status?.state === "done" && job && (
        <div
          role="status"
          className="space-y-1 rounded-md border-l-4 border-green-700 bg-green-50 p-3 dark:bg-green-950"
        >
          <p>
            The bundle is ready: {status.files} files, {size(status.bytes)}.{" "}
            <a
              className="font-semibold underline"
              href={`/support/download?job=${job}`}
              download={status.fileName ?? undefined}
            >
              Download {status.fileName}
            </a>
          </p>
          <p className="text-sm">
            The map from placeholders back to the real values stays on this computer, in {status.mapFile}. Do not send
            it.
          </p>
        </div>
      )}
    </section>
  );
}
