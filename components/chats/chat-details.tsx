import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Time } from "@/components/ui/time";
import { isOdaError } from "@/lib/errors";
import { chatHref } from "@/lib/routes";
import { type DetailsView, detailsOnce } from "@/server/chat-inspector";
import { formatBytes, formatCount } from "./format";
import { ProblemList } from "./problem-list";

const CACHE_LABEL: Record<string, string> = {
  cached: "cached",
  behind: "behind",
  discarded: "discarded",
  unreadable: "discarded",
  none: "none",
};

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap gap-x-2">
      <dt className="font-medium">{term}:</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/** The chat's title for its heading: the log's title, else "Chat <id>" (one read, shared with the details). */
export async function ChatTitle({ id }: { id: string }) {
  const d = await detailsOnce(id).catch(() => null);
  return <>{d?.title ?? `Chat ${id}`}</>;
}

function unreadable(error: unknown): string {
  return isOdaError(error) ? error.message : "The chat's details could not be read; run oda-admin doctor.";
}

/** The chat's problems (or why its details could not be read), above the log: never folded away. */
export async function ChatProblems({ id }: { id: string }) {
  let d: DetailsView;
  try {
    d = await detailsOnce(id);
  } catch (error) {
    return <Alert tone="error">{unreadable(error)}</Alert>;
  }
  if (!d.problems.length) return null;
  return (
    <div className="rounded-md border-l-4 border-red-600 bg-red-50 p-3 dark:bg-red-950/60">
      <h2 className="mb-1 font-semibold text-red-900 dark:text-red-100">Problems</h2>
      <ProblemList problems={d.problems} label="Problems of this chat" />
    </div>
  );
}

/** The details only a whole read of the log gives (streamed in after the first screen). */
export async function ChatDetails({ id }: { id: string }) {
  let d: DetailsView;
  try {
    d = await detailsOnce(id);
  } catch {
    // The sentence is shown once, by ChatProblems above the log.
    return <p className="text-sm">The details could not be read: see the problem above.</p>;
  }
  return (
    <div className="space-y-3">
      <dl className="grid gap-1 text-sm sm:grid-cols-2">
        <Row term="Title">{d.title ?? "(none)"}</Row>
        <Row term="Created">
          <Time iso={d.created} />
        </Row>
        <Row term="Continues">
          {d.continues ? (
            <Link href={chatHref(d.continues)} className="text-blue-800 underline dark:text-blue-300">
              {d.continues}
            </Link>
          ) : (
            "no earlier chat"
          )}
        </Row>
        <Row term="Last activity">
          <Time iso={d.lastActivity} />
        </Row>
        <Row term="Messages">{formatCount(d.messages)}</Row>
        <Row term="Tokens">
          {formatCount(d.inputTokens)} in / {formatCount(d.outputTokens)} out
        </Row>
        <Row term="Models">{d.models.join(", ") || "–"}</Row>
        <Row term="Lines">{d.lines === null ? "counted with the log below" : formatCount(d.lines)}</Row>
        <Row term="Size decompressed">
          {d.decompressedBytes === null ? (
            "counted with the log below"
          ) : (
            <span title={`${d.decompressedBytes} bytes`}>{formatBytes(d.decompressedBytes)}</span>
          )}
        </Row>
        <Row term="Checkpoint">
          <span className="font-semibold">{CACHE_LABEL[d.cacheState] ?? d.cacheState}</span> — {d.cacheReason}
          {!d.readWhole &&
            " This log is large: these details come from its checkpoint, and its lines are checked as you page through them."}
        </Row>
      </dl>
    </div>
  );
}
