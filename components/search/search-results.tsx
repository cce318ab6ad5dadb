import { Badge } from "@/components/ui/badge";
import { Link } from "@/components/ui/link";
import { chatHref } from "@/lib/routes";
import type { SearchGroup, SearchResult, SnippetPart } from "@/lib/types";
import { plural } from "@/lib/words";

function Snippet({ parts }: { parts: SnippetPart[] }) {
  return (
    <span className="break-words">
      {parts.map((p, i) =>
        p.hit ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: snippet parts have no identity beyond their order
          <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-zinc-950 dark:bg-yellow-300">
            {p.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: snippet parts have no identity beyond their order
          <span key={i}>{p.text}</span>
        ),
      )}
    </span>
  );
}

function ChatGroup({ group }: { group: SearchGroup }) {
  const title = group.title ?? "Untitled chat";
  const more = group.count - group.hits.length;
  return (
    <li className="rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="min-w-0 font-medium break-words">
          <Link
            href={chatHref(group.id, { line: group.hits[0]?.line ?? 1 })}
            className="text-blue-800 underline dark:text-blue-300"
          >
            {title}
          </Link>
        </h3>
        <Badge tone="info">
          {group.count} {group.count === 1 ? "match" : "matches"}
        </Badge>
        {group.problems > 0 && <Badge tone="warning">has problems</Badge>}
      </div>
      <p className="mt-1 text-sm break-all text-zinc-700 dark:text-zinc-300">
        {group.cwd ?? "No working folder"} · chat {group.id}
        {group.lastActivity && <> · last active {group.lastActivity.slice(0, 16).replace("T", " ")}</>}
      </p>
      <ul className="mt-3 space-y-2">
        {group.hits.map((hit) => (
          <li key={`${hit.line}-${hit.role}`} className="text-sm">
            <Link
              href={chatHref(group.id, { line: hit.line })}
              className="block rounded px-2 py-1 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-800"
            >
              <span className="mr-2 font-mono text-xs text-zinc-600 dark:text-zinc-400">line {hit.line}</span>
              <Badge>{hit.role}</Badge> <Snippet parts={hit.snippet} />
              <span className="sr-only">, in {title}</span>
            </Link>
          </li>
        ))}
      </ul>
      {more > 0 && (
        <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
          {more} more {more === 1 ? "match" : "matches"} in this chat.
        </p>
      )}
    </li>
  );
}

/** Search results, grouped by chat, the most recently active first. */
export function SearchResults({ result }: { result: SearchResult }) {
  if (!result.groups.length) {
    return <p className="text-zinc-700 dark:text-zinc-300">No chat matches {JSON.stringify(result.query)}.</p>;
  }
  const shown = result.groups.length;
  return (
    <div className="space-y-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {result.moreHits ? "More than " : ""}
        {plural(result.totalHits, "match", "matches")} in{" "}
        {result.totalChats === null
          ? `more than ${shown.toLocaleString("en")} chats`
          : plural(result.totalChats, "chat")}{" "}
        ({result.ms} ms){result.moreChats ? `; the ${shown} most recently active are shown.` : "."}
      </p>
      <ul className="space-y-3" aria-label="Chats that match">
        {result.groups.map((g) => (
          <ChatGroup key={g.id} group={g} />
        ))}
      </ul>
    </div>
  );
}
