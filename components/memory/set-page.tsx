import { Prefetch } from "@/components/shell/prefetch";
import { Link } from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { WriteButton } from "@/components/ui/write-button";
import { workspaceSetExists } from "@/lib/memory";
import { newMemoryHref } from "@/lib/routes";
import { pageSource } from "@/server/source/edge";
import { setLabel } from "./names";
import { NoSuchSet } from "./no-such-set";
import { memoryQueries } from "./queries";
import { SetView } from "./set-view";

/** The page of one set: its header with "New memory", then the live table; a workspace with no set says so. */
export async function SetPage({ workspace }: { workspace: string | null }) {
  const ctx = await pageSource();
  const home = ctx.roots.home;
  if (workspace !== null && home && !(await workspaceSetExists(home, workspace))) {
    return (
      <>
        <PageHeader title={setLabel(workspace)} />
        <NoSuchSet workspace={workspace} />
      </>
    );
  }
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
          ctx.canWrite ? (
            <Link
              href={newMemoryHref(workspace)}
              className="inline-flex items-center rounded-md bg-blue-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-blue-800 dark:bg-blue-500 dark:text-zinc-950"
            >
              New memory
            </Link>
          ) : (
            // Nothing can be created in a bundle: the control is there, disabled, with the reason.
            <WriteButton variant="primary">New memory</WriteButton>
          )
        }
      />
      <Prefetch queries={[memoryQueries.set(workspace)]}>
        <SetView workspace={workspace} />
      </Prefetch>
    </>
  );
}
