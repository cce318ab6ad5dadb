import type { ChatRow } from "../../lib/chats/views";

/** A chat list row as the page shows one: a chat of four messages in `/home/ana/zoo`, with `more` over it. */
export const chatRow = (id: string, more: Partial<ChatRow> = {}): ChatRow => ({
  id,
  title: `Title of ${id}`,
  folder: `--%2Fhome%2Fana%2Fzoo--/${id}`,
  group: "--%2Fhome%2Fana%2Fzoo--",
  cwd: "/home/ana/zoo",
  created: "2026-11-29T18:24:08.123Z",
  firstActivity: "2026-11-29T18:24:08.123Z",
  lastActivity: "2026-11-29T18:30:00.000Z",
  messages: 4,
  tokens: 1234,
  format: 1,
  compressed: true,
  generations: ["2026-11-29T18-24-08Z.jsonl.zst"],
  lock: { state: "none", reason: "No lock file." },
  cached: true,
  cacheState: "cached",
  cacheReason: "The checkpoint matches the log.",
  behindBytes: 0,
  problems: [],
  ...more,
});
