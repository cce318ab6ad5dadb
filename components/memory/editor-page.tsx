import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/ui/page-header";
import { isWorkspaceKey } from "@/lib/memory/names";
import { setHref } from "@/lib/routes";
import { loadEditorMemory } from "@/server/memory-page";
import { serverRoots } from "@/server/roots";
import { MemoryEditor } from "./memory-editor";
import { setLabel } from "./names";

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
  const found = id === null ? null : await loadEditorMemory(serverRoots().home, workspace, id);
  if (found?.kind === "missing") notFound();
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
          </>
        }
      />
      {found?.kind === "refused" ? (
        <p role="alert" className="rounded border border-red-300 p-3 text-red-800 dark:text-red-300">
          {found.message}
        </p>
      ) : (
        <MemoryEditor workspace={workspace} id={id} />
      )}
    </>
  );
}
