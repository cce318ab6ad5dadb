"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { previewBundleAction, startBundleAction } from "@/server/actions/bundle";
import { BundlePreviewView, size, useBundleJob } from "./bundle-preview";
import { INITIAL_SCOPE, ScopeFields, type ScopeForm, toScope } from "./scope-fields";

/**
 * Support bundle, step by step: choose, preview what goes in (files, sizes,
 * how many values each kind replaces) before anything is written, with a
 * progress bar while the logs are read, then write it with a progress bar and
 * download it.
 */
export function CreateBundle() {
  const withSource = useSourceInput();
  const [form, setForm] = useState<ScopeForm>(INITIAL_SCOPE);
  const scope = toScope(form);
  const [job, setJob] = useState<string | null>(null);
  const [previewJob, setPreviewJob] = useState<string | null>(null);
  const preview = useMutation({
    mutationFn: () => unwrap(previewBundleAction(withSource(scope))),
    onSuccess: (data) => setPreviewJob(data.id),
  });
  const start = useMutation({
    mutationFn: () => unwrap(startBundleAction(withSource(scope))),
    onSuccess: (data) => setJob(data.id),
  });
  const status = useBundleJob(job).data;
  const checking = useBundleJob(previewJob).data;
  const change = (v: ScopeForm) => {
    setForm(v);
    preview.reset();
    setPreviewJob(null);
    setJob(null);
  };

  return (
    <section aria-labelledby="create-heading" className="space-y-4">
      <h2 id="create-heading" className="text-xl font-semibold">
        Create a support bundle
      </h2>
      <ScopeFields value={form} onChange={change} />
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => preview.mutate()} disabled={preview.isPending || checking?.state === "running"}>
          {preview.isPending || checking?.state === "running" ? "Checking…" : "Preview"}
        </Button>
        <Button
          variant="primary"
          onClick={() => start.mutate()}
          disabled={!checking?.preview || start.isPending || status?.state === "running"}
          aria-describedby={checking?.preview ? undefined : "create-hint"}
        >
          Create bundle
        </Button>
      </div>
      {!checking?.preview && (
        <p id="create-hint" className="text-sm text-zinc-700 dark:text-zinc-300">
          Preview first: it lists every file that goes in and what each redaction replaces. Create bundle is available
          once the preview is shown, and a change to the choices above asks for a new one.
        </p>
      )}
      {(preview.error || start.error) && <Alert tone="error">{(preview.error ?? start.error)?.message}</Alert>}
      {checking?.state === "running" && (
        <Progress
          label="Reading and counting what each redaction replaces"
          done={checking.progress.done}
          total={checking.progress.total || null}
        />
      )}
      {checking?.state === "failed" && <Alert tone="error">{checking.error}</Alert>}
      {checking?.state === "cancelled" && <Alert tone="info">{checking.error}</Alert>}
      {checking?.preview && (
        <BundlePreviewView
          preview={checking.preview}
          kinds={[...scope.kinds, ...(scope.keywords.length ? ["keyword"] : [])]}
        />
      )}
      {status && status.state === "running" && (
        <Progress
          label={status.progress.phase === "reading" ? "Reading and redacting" : "Writing the bundle"}
          done={status.progress.done}
          total={status.progress.total || null}
        />
      )}
      {status?.state === "failed" && <Alert tone="error">{status.error}</Alert>}
      {status?.state === "cancelled" && <Alert tone="info">{status.error}</Alert>}
      {status?.state === "done" && job && (
        <div
          role="status"
          className="space-y-1 rounded-md border-l-4 border-green-700 bg-green-50 p-3 dark:bg-green-950"
        >
          <p className="[overflow-wrap:anywhere]">
            The bundle is ready: {status.files.toLocaleString("en")} files, {size(status.bytes)}.{" "}
            <a
              className="font-semibold underline"
              href={`/support/download?job=${job}`}
              download={status.fileName ?? undefined}
            >
              Download {status.fileName}
            </a>
          </p>
          <p className="text-sm [overflow-wrap:anywhere]">
            The map from placeholders back to the real values stays on this computer, in {status.mapFile}. Do not send
            it.
          </p>
        </div>
      )}
    </section>
  );
}
