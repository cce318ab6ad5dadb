import { Prefetch } from "@/components/shell/prefetch";
import { type HistoryProps, HistoryView } from "./history-view";
import { memoryQueries } from "./queries";

/** A memory's history page, its versions read on the server before the page is sent. */
export function HistoryPage(props: HistoryProps) {
  return (
    <Prefetch queries={[memoryQueries.history(props.workspace, props.id)]}>
      <HistoryView {...props} />
    </Prefetch>
  );
}
