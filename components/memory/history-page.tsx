import { Prefetch } from "@/components/shell/prefetch";
import { HistoryView } from "./history-view";
import { memoryQueries } from "./queries";

/** A memory's history page, its versions read on the server before the page is sent. */
export function HistoryPage({
  workspace,
  id,
  initialVersion,
}: {
  workspace: string | null;
  id: string;
  initialVersion: string | null;
}) {
  return (
    <Prefetch queries={[memoryQueries.history(workspace, id)]}>
      <HistoryView workspace={workspace} id={id} initialVersion={initialVersion} />
    </Prefetch>
  );
}
