import { readdirSync } from "node:fs";
import { listGenerations, readChatFolder } from "../chats/chat";
import { rebuildDetails } from "../chats/details";
import { realLogRoot } from "../chats/links";
import { findCopies } from "./chat-plans";
import { factOfPath } from "./files";

/** One copy of a chat stored in two places, as the comparison shows it. */
export interface ChatCopy {
  dir: string;
  /** Every log and the checkpoint: name, size, SHA-256. */
  files: { name: string; bytes: number; sha256: string }[];
  /** The newest log's name, its complete lines and messages, and the last activity. */
  current: string | null;
  lines: number;
  messages: number;
  firstActivity: string | null;
  lastActivity: string | null;
  /** True for the copy that leads: the later last activity, then the more lines. */
  leads: boolean;
}

/** Compares the copies of a chat stored in two places, so a person can choose which to set aside. */
export async function compareCopies(logDir: string, id: string, compress: boolean): Promise<ChatCopy[]> {
  const copies: ChatCopy[] = [];
  for (const dir of findCopies(logDir, id)) {
    const names = readdirSync(dir);
    const files = names
      .sort()
      .map((name) => ({ name, fact: factOfPath(`${dir}/${name}`) }))
      .filter((f) => f.fact !== null)
      .map((f) => ({ name: f.name, bytes: f.fact?.size ?? 0, sha256: f.fact?.sha256 ?? "" }));
    const current =
      listGenerations(dir, readChatFolder({ dir, root: realLogRoot(logDir) }), compress).find((g) => g.current) ?? null;
    const rebuilt = current ? await rebuildDetails(current.path, current.compressed) : null;
    copies.push({
      dir,
      files,
      current: current?.name ?? null,
      lines: rebuilt?.lines ?? 0,
      messages: rebuilt?.details.messages ?? 0,
      firstActivity: rebuilt?.details.firstActivity ?? null,
      lastActivity: rebuilt?.details.lastActivity ?? null,
      leads: false,
    });
  }
  const rank = (c: ChatCopy) => `${c.lastActivity ?? ""}\0${String(c.lines).padStart(12, "0")}`;
  const leader = copies.reduce<ChatCopy | null>((best, c) => (!best || rank(c) > rank(best) ? c : best), null);
  if (leader && copies.filter((c) => rank(c) === rank(leader)).length === 1) leader.leads = true;
  return copies;
}
