import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { newMemoryHref } from "@/lib/routes";
import { setLabel } from "./names";
import { SetView } from "./set-view";

/** The page of one set: its header with "New memory", then the live table. */
export function SetPage({ workspace }: { workspace: string | null }) {
  return (
    <>
      <PageHeader
        title={setLabel(workspace)}
        description={
          workspace === null
            ? "Sent to every chat, in every workspace and with none."
            : `Sent only to chats in the workspace ${workspace}, after the global memories.`
        }
        actions={
          <Link
            href={newMemoryHref(workspace)}
            className="inline-flex items-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 dark:bg-blue-500 dark:text-zinc-950"
          >
            New memory
          </Link>
        }
      />
      <SetView workspace={workspace} />
    </>
  );
}
