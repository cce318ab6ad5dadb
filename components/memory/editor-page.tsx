import { notFound } from "next/navigation";
import { Prefetch } from "@/components/shell/prefetch";
import { Alert } from "@/components/ui/alert";
import { Link } from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { workspaceSetExists } from "@/lib/memory";
import { isWorkspaceKey } from "@/lib/memory/names";
import { setHref } from "@/lib/routes";
import { pageSource } from "@/server/source/edge";
import { loadEditorMemory } from "@/server/views/memory-page";
import { MemoryEditor } from "./memory-editor";
import { MemoryOrigin } from "./memory-origin";
import { setLabel } from "./names";
import { NoSuchSet } from "./no-such-set";
import { memoryQueries } from "./queries";

/** Decodes a `[key]` segment; null when it is not a workspace key. */
export function workspaceFromParam(raw: string): string | null {
  let key: string;
  try {
    key = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return isWorkspaceKey(key) ? key : null;
}

/** The editor's page: a new memory (`id` null) or an existing one; an unknown key or id is not found. */
export async function EditorPage({ workspace, id }: { workspace: string | null; id: string | null }) {
  const home = (await pageSource()).roots.home;
  const found = id === null ? null : await loadEditorMemory(home, workspace, id);
  if (found?.kind === "missing") notFound();
  // A new memory goes only into a set that exists: creating the set is its own, explicit action.
  if (id === null && workspace !== null && home && !(await workspaceSetExists(home, workspace))) {
    return (
      <>
        <PageHeader title="New memory" />
        <NoSuchSet workspace={workspace} />
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={id === null ? "New memory" : "Edit memory"}
        description={
          <>
            In{" "}
            <Link href={setHref(workspace)} className="text-blue-800 underline dark:text-blue-300">
              {setLabel(workspace)}
            </Link>
            {id !== null && (
              <>
                {" "}
                · id <code>{id}</code>
              </>
            )}
            {found?.kind === "found" && found.chat !== undefined && <MemoryOrigin chat={found.chat} />}
          </>
        }
      />
      {found?.kind === "refused" ? (
        <Alert tone="error">{found.message}</Alert>
      ) : (
        <Prefetch
          queries={
            id === null
              ? [memoryQueries.editorContext(workspace, null)]
              : [memoryQueries.editorContext(workspace, id), memoryQueries.one(workspace, id)]
          }
        >
          <MemoryEditor workspace={workspace} id={id} />
        </Prefetch>
      )}
    </>
  );
}
