"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useRead } from "@/components/shell/use-read";
import { Button } from "@/components/ui/button";
import { formatCount } from "./format";

const FIELD =
  "rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-600 dark:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600";

/** Why Next error found nothing: the lines after `current` are all valid, or `current` is the last line. */
function noErrorAfter(current: number, count: number | null): string {
  const after = `No invalid line after line ${formatCount(current)}`;
  if (count === null) return `${after}.`;
  if (current >= count) return `${after}: it is the last line of this log.`;
  return `${after}: lines ${formatCount(current + 1)} to ${formatCount(count)} are all valid.`;
}

/** The viewer's controls: view, jump to a line, start, end, next error, find, follow. */
export function LogToolbar({
  id,
  generation,
  view,
  onView,
  count,
  current,
  follow,
  onFollow,
  canFollow,
  onJump,
  onGo,
  onEnd,
  onMessage,
  onQuery,
}: {
  id: string;
  generation: string;
  view: "raw" | "conversation";
  onView: (view: "raw" | "conversation") => void;
  count: number | null;
  current: number;
  follow: boolean;
  onFollow: (on: boolean) => void;
  canFollow: boolean;
  onJump: (line: number) => void;
  /** The Jump to line form: a line that does not exist is refused with a sentence, not clamped. */
  onGo: (line: number) => void;
  onEnd: () => void;
  onMessage: (message: string) => void;
  /** The text Find next looked for: the log viewer's `n`/`N` look for it again. */
  onQuery?: (query: string) => void;
}) {
  const read = useRead();
  const [line, setLine] = useState("");
  const [query, setQuery] = useState("");
  const lineId = useId();
  const findId = useId();
  const toolsId = useId();
  const [toolsOpen, setToolsOpen] = useState(false);
  const nextError = useMutation({
    mutationFn: () => read("chats.next-error", { id, from: current + 1, generation }),
    onSuccess: (found) => {
      if (found) {
        onJump(found.n);
        onMessage(`Invalid line ${formatCount(found.n)} at byte ${formatCount(found.offset)}.`);
      } else onMessage(noErrorAfter(current, count));
    },
    onError: (e) => onMessage(e.message),
  });
  const find = useMutation({
    mutationFn: (q: string) => read("chats.find", { id, query: q, from: current + 1, generation }),
    onSuccess: (found, q) => {
      if (found) {
        onJump(found.n);
        onMessage(`“${q}” found at line ${formatCount(found.n)}.`);
      } else onMessage(`“${q}” is not in any line after line ${formatCount(current)}.`);
    },
    onError: (e) => onMessage(e.message),
  });
  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-2 text-sm">
      <fieldset className="flex gap-1">
        <legend className="sr-only">View</legend>
        {(["conversation", "raw"] as const).map((v) => (
          <Button
            key={v}
            variant={view === v ? "primary" : "secondary"}
            aria-pressed={view === v}
            onClick={() => onView(v)}
          >
            {v === "raw" ? "Raw lines" : "Conversation"}
          </Button>
        ))}
      </fieldset>
      {/* On a phone the tools fold behind one button, so the log's first lines are on the first screen. */}
      <Button
        className="sm:hidden"
        aria-expanded={toolsOpen}
        aria-controls={toolsId}
        onClick={() => setToolsOpen(!toolsOpen)}
      >
        Jump and find<span aria-hidden="true">{toolsOpen ? " ▴" : " ▾"}</span>
      </Button>
      <div id={toolsId} className={`${toolsOpen ? "flex" : "hidden"} flex-wrap items-end gap-x-4 gap-y-2 sm:flex`}>
        <form
          className="flex items-end gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(line);
            if (Number.isInteger(n) && n >= 1) onGo(n);
            else onMessage("Give a line number of 1 or more.");
          }}
        >
          <label htmlFor={lineId} className="flex flex-col gap-0.5">
            <span>Jump to line</span>
            <input
              id={lineId}
              type="number"
              min={1}
              // no max: the browser would block the form without a word; onGo says why a line does not exist
              value={line}
              onChange={(e) => setLine(e.target.value)}
              className={`${FIELD} w-32`}
            />
          </label>
          <Button type="submit">Go</Button>
        </form>
        <div className="flex gap-1">
          <Button onClick={() => onJump(1)}>Start</Button>
          <Button onClick={onEnd}>End</Button>
          <Button onClick={() => nextError.mutate()} disabled={nextError.isPending}>
            {nextError.isPending ? "Looking…" : "Next error"}
          </Button>
        </div>
        <form
          className="flex items-end gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            if (!query.trim()) return;
            onQuery?.(query);
            find.mutate(query);
          }}
        >
          <label htmlFor={findId} className="flex flex-col gap-0.5">
            <span>Find in this chat</span>
            <input
              dir="auto"
              id={findId}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className={`${FIELD} w-48`}
            />
          </label>
          <Button type="submit" disabled={find.isPending}>
            {find.isPending ? "Finding…" : "Find next"}
          </Button>
        </form>
        {canFollow && (
          <Button aria-pressed={follow} variant={follow ? "primary" : "secondary"} onClick={() => onFollow(!follow)}>
            {follow ? "Following new lines" : "Follow new lines"}
          </Button>
        )}
      </div>
    </div>
  );
}
