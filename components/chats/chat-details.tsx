import { Alert } from "@/components/ui/alert";
import { Fact } from "@/components/ui/fact";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { isOdaError } from "@/lib/errors";
import { chatHref } from "@/lib/routes";
import { pageSource } from "@/server/source/edge";
import { type DetailsView, detailsOnce } from "@/server/views/chat-inspector";
import { formatBytes, formatCount } from "./format";
import { ProblemList } from "./problem-list";

const CACHE_LABEL: Record<string, string> = {
  cached: "cached",
  behind: "behind",
  discarded: "discarded",
  unreadable: "discarded",
  none: "none",
};

/** The chat's title for its heading: the log's title, else "Chat <id>" (one read, shared with the details). */
export async function ChatTitle({ id }: { id: string }) {
  const d = await detailsOnce(await pageSource(), id).catch(() => null);
  return <>{d?.title ?? `Chat ${id}`}</>;
}

function unreadable(error: unknown): string {
  return isOdaError(error) ? error.message : "The chat's details could not be read; run oda-admin doctor.";
}

/** The chat's problems (or why its details could not be read), above the log: never folded away. */
export async function ChatProblems({ id }: { id: string }) {
  let d: DetailsView;
  try {
    d = await detailsOnce(await pageSource(), id);
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
    d = await detailsOnce(await pageSource(), id);
  } catch {
    // The sentence is shown once, by ChatProblems above the log.
    return <p className="text-sm">The details could not be read: see the problem above.</p>;
  }
  return (
    <div className="space-y-3">
      <dl className="grid gap-1 text-sm sm:grid-cols-2">
        <Fact term="Title">{d.title ?? "(none)"}</Fact>
        <Fact term="Created">
          <Time iso={d.created} />
        </Fact>
        <Fact term="Continues">
          {d.continues ? (
            <Link href={chatHref(d.continues)} className="text-blue-800 underline dark:text-blue-300">
              {d.continues}
            </Link>
          ) : (
            "no earlier chat"
          )}
        </Fact>
        <Fact term="Last activity">
          <Time iso={d.lastActivity} />
        </Fact>
        <Fact term="Messages">{formatCount(d.messages)}</Fact>
        <Fact term="Tokens">
          {/* Relative to this page: the same chat, its log filtered to the lines these totals add up. */}
          <Link href="?usage=1&view=raw" className="text-blue-800 underline dark:text-blue-300">
            {formatCount(d.inputTokens)} in / {formatCount(d.outputTokens)} out
            <span className="sr-only">: the lines they come from</span>
          </Link>
        </Fact>
        <Fact term="Models">{d.models.join(", ") || "–"}</Fact>
        <Fact term="Lines">{d.lines === null ? "counted with the log below" : formatCount(d.lines)}</Fact>
        <Fact term="Size decompressed">
          {d.decompressedBytes === null ? (
            "counted with the log below"
          ) : (
            <span title={`${d.decompressedBytes} bytes`}>{formatBytes(d.decompressedBytes)}</span>
          )}
        </Fact>
        <Fact term="Checkpoint">
          <span className="font-semibold">{CACHE_LABEL[d.cacheState] ?? d.cacheState}</span> — {d.cacheReason}
          {!d.readWhole &&
            " This log is large: these details come from its checkpoint, and its lines are checked as you page through them."}
        </Fact>
      </dl>
    </div>
  );
}
