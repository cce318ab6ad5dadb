"use client";

import { useMutation } from "@tanstack/react-query";
import { useSourceInput, useSourceRouter } from "@/components/shell/source";
import { unwrap } from "@/components/ui/action-error";
import { Alert } from "@/components/ui/alert";
import { Link } from "@/components/ui/link";
import { WriteButton } from "@/components/ui/write-button";
import { noWorkspaceSet } from "@/lib/memory/workspace-set-words";
import { memoryPages } from "@/lib/routes";
import { createWorkspaceSetAction } from "@/server/actions/memory";

/**
 * The page of a workspace with no memory set: says so, and creates the set
 * only when the person asks (a save never creates one silently).
 */
export function NoSuchSet({ workspace }: { workspace: string }) {
  const withSource = useSourceInput();
  const router = useSourceRouter();
  const create = useMutation({
    mutationFn: () => unwrap(createWorkspaceSetAction(withSource({ workspace }))),
    onSuccess: () => router.refresh(),
  });
  return (
    <div className="max-w-2xl space-y-3">
      <Alert tone="warning" title={noWorkspaceSet(workspace)}>
        <p>No chat in this workspace has saved a memory, and nobody has created its set.</p>
      </Alert>
      <div className="flex flex-wrap items-center gap-3">
        <WriteButton variant="primary" onClick={() => create.mutate()} disabled={create.isPending}>
          Create a memory set for workspace {workspace}
        </WriteButton>
        <Link href={memoryPages.overview} className="text-sm text-blue-800 underline dark:text-blue-300">
          Back to every set
        </Link>
      </div>
      {create.isError && <Alert tone="error">{create.error.message}</Alert>}
    </div>
  );
}
