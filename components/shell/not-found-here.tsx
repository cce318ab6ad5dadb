"use client";

import { useParams } from "next/navigation";
import { Link } from "@/components/ui/link";
import { noChatSentence } from "@/lib/chats/chat-words";
import { noMemoryInSet } from "@/lib/memory/admin-words";
import { isWorkspaceKey } from "@/lib/memory/names";
import { chatsHref, memoryPages, setHref } from "@/lib/routes";

/** A route segment's value: decoded once when the router hands it over still encoded. */
function segment(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join("/") : (value ?? "");
  if (!/%[0-9A-Fa-f]{2}/.test(raw)) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

const LINK = "text-blue-700 underline dark:text-blue-300";

/**
 * The page of a chat or a memory that does not exist (still a 404): the exact
 * sentence the CLI says for it, and the way back to the list it is not in.
 */
export function NotFoundHere({ kind }: { kind: "chat" | "memory" }) {
  const params = useParams<{ id?: string; key?: string }>();
  const id = segment(params.id);
  if (kind === "chat") {
    return (
      <Missing sentence={noChatSentence(id)}>
        <Link className={LINK} href={chatsHref()}>
          All chats
        </Link>
      </Missing>
    );
  }
  const workspace = params.key === undefined ? null : segment(params.key);
  return (
    <Missing sentence={noMemoryInSet(id, workspace)}>
      <Link
        className={LINK}
        href={workspace === null || isWorkspaceKey(workspace) ? setHref(workspace) : memoryPages.overview}
      >
        Back to the set
      </Link>
    </Missing>
  );
}

function Missing({ sentence, children }: { sentence: string; children: React.ReactNode }) {
  return (
    <div className="max-w-3xl space-y-3">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p role="alert">{sentence}</p>
      {children}
    </div>
  );
}
