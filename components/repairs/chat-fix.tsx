"use client";

import { Link } from "@/components/ui/link";
import { chatHref } from "@/lib/routes";
import { DuplicateCompare } from "./duplicate-compare";
import { FixButton } from "./fix-button";

/**
 * The chat page's repair box: a log of the other form than the folder keeps
 * (Fix converts it), or a chat stored in two places (compare both copies, set
 * one aside).
 */
export function ChatFix({
  chat,
  problem,
  viewing,
}: {
  chat: string;
  problem: "form" | "duplicate";
  /** The copy shown on the page (a chat stored in two places), if any. */
  viewing?: number;
}) {
  return (
    <section
      aria-label="Repair"
      className="space-y-2 rounded-md border-l-4 border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950"
    >
      {problem === "form" ? (
        <>
          <p>
            A log of this chat is in the other form than the log folder keeps, so Oda refuses it. Fix converts it to the
            folder&apos;s form; the original is kept in the admin state.
          </p>
          <FixButton target={{ kind: "form", chat }} title="Convert this chat's log?" />
        </>
      ) : (
        <>
          <p>
            Compare both copies (view each one, read-only), then set the one you do not want aside; it is kept in the
            admin state.
          </p>
          <DuplicateCompare chat={chat} viewing={viewing} />
        </>
      )}
    </section>
  );
}

/** Under the log folder's problems: a Fix link for each chat stored in two places (its page compares the copies). */
export function DuplicateLinks({ problems }: { problems: { kind: string; chat?: string }[] }) {
  const ids = [...new Set(problems.flatMap((p) => (p.kind === "duplicate" && p.chat ? [p.chat] : [])))];
  if (!ids.length) return null;
  return (
    <ul aria-label="Fixes" className="mt-2 flex flex-wrap gap-3 text-sm">
      {ids.map((id) => (
        <li key={id}>
          <Link className="text-blue-800 underline dark:text-blue-300" href={chatHref(id)}>
            Fix chat {id}
          </Link>
        </li>
      ))}
    </ul>
  );
}
