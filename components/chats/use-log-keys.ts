"use client";

import { useMutation } from "@tanstack/react-query";
import { type Shortcut, useShortcuts } from "@/components/shell/shortcuts";
import { useRead } from "@/components/shell/use-read";
import type { LineSeek } from "@/lib/chats/read";
import { formatCount } from "./format";

interface Seek {
  seek: LineSeek;
  forward: boolean;
}

/** What the sentence after a seek names: the match found, or where nothing is. */
function seekSentence({ seek, forward }: Seek, from: number, found: number | null): string {
  const where = `${forward ? "after" : "before"} line ${formatCount(from)}`;
  if (seek.kind === "text")
    return found === null
      ? `“${seek.query}” is not in any line ${where}.`
      : `“${seek.query}” found at line ${formatCount(found)}.`;
  if (seek.kind === "problem")
    return found === null ? `No problem line ${where}.` : `Problem line ${formatCount(found)}.`;
  return found === null ? `No user message ${where}.` : `User message at line ${formatCount(found)}.`;
}

/**
 * The log viewer's keys: lines, matches, problem lines and user messages
 * either way (read by the server, so a log of any size), top and bottom,
 * follow and the line's link.
 */
export function useLogKeys({
  id,
  generation,
  current,
  query,
  canFollow,
  follow,
  onFollow,
  onJump,
  onEnd,
  onMessage,
  linkOf,
  onMark,
}: {
  id: string;
  generation: string;
  current: number;
  /** The last text searched for with Find next: what `n`/`N` look for. */
  query: string;
  canFollow: boolean;
  follow: boolean;
  onFollow: (on: boolean) => void;
  onJump: (line: number) => void;
  onEnd: () => void;
  onMessage: (message: string) => void;
  /** The absolute address of a line of this page, for the clipboard. */
  linkOf: (line: number) => string;
  /** Marks the current line (kept in the admin state). */
  onMark: () => void;
}): void {
  const read = useRead();
  const seek = useMutation({
    mutationFn: ({ seek, forward }: Seek & { from: number }) =>
      read("chats.seek", { id, seek, from: current, forward, generation }),
    onSuccess: (found, asked) => {
      if (found) onJump(found.n);
      onMessage(seekSentence(asked, asked.from, found?.n ?? null));
    },
    onError: (e) => onMessage(e.message),
  });
  const run = (s: LineSeek, forward: boolean) => () => {
    if (!seek.isPending) seek.mutate({ seek: s, forward, from: current });
  };
  const text = (forward: boolean) => () => {
    if (query) run({ kind: "text", query }, forward)();
    else onMessage("Nothing to look for yet: type a text in Find in this chat (press /) first.");
  };
  const keys: Shortcut[] = [
    { keys: "j", label: "Next line", run: () => onJump(current + 1) },
    { keys: "k", label: "Previous line", run: () => onJump(Math.max(1, current - 1)) },
    { keys: "n", label: "Next match of the text found last", run: text(true) },
    { keys: "N", label: "Previous match", run: text(false) },
    { keys: "e", label: "Next problem line (not JSON, or a tool error)", run: run({ kind: "problem" }, true) },
    { keys: "E", label: "Previous problem line", run: run({ kind: "problem" }, false) },
    { keys: "[", label: "Previous user message", run: run({ kind: "user" }, false) },
    { keys: "]", label: "Next user message", run: run({ kind: "user" }, true) },
    { keys: "g", label: "First line", run: () => onJump(1) },
    { keys: "G", label: "Last line", run: onEnd },
    { keys: "m", label: "Mark the line (listed under Notes and marks)", run: onMark },
    {
      keys: "c",
      label: "Copy the line's link",
      run: () =>
        void navigator.clipboard.writeText(linkOf(current)).then(
          () => onMessage(`Link to line ${formatCount(current)} copied.`),
          () => onMessage(`The link could not be copied: ${linkOf(current)}`),
        ),
    },
  ];
  if (canFollow)
    keys.push({
      keys: "f",
      label: follow ? "Stop following new lines" : "Follow new lines",
      run: () => onFollow(!follow),
    });
  useShortcuts("Log viewer", keys);
}
