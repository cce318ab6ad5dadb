import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { rebuildDetails } from "../../../lib/chats/details";
import { locateChat } from "../../../lib/chats/folder";
import { LineSplitter, parseObject } from "../../../lib/chats/lines";
import { streamLog } from "../../../lib/chats/log-stream";
import { encodeName, groupName, logFileName, parseLogName } from "../../../lib/chats/names";
import { OdaError } from "../../../lib/errors";
import { ChatWriter, type NewChat, type WriterOptions } from "./chat-writer";

export { ChatWriter, type NewChat, type Turn, type WriterOptions } from "./chat-writer";
export { appendCutSave, appendUnfinishedLine, leaveDeadLock, makeDeadHolder, writeTinyFrameLog } from "./crash";

/**
 * Starts a new chat. Nothing is written until the first save (the seed: files
 * appear on a chat's first save); that save writes the header, takes the lock
 * and writes the first checkpoint.
 */
export function createChat(logDir: string, chat: NewChat, options: WriterOptions = {}): ChatWriter {
  const identity = { created: new Date().toISOString(), continues: null, ...chat };
  const writer = new ChatWriter(logDir, identity, options);
  if (existsSync(writer.logPath)) throw new OdaError("refused", `Chat "${chat.id}" already exists.`);
  const dir = join(logDir, groupName(chat.cwd), encodeName(chat.id));
  if (existsSync(dir)) writer.acquireLock();
  return writer;
}

/** Opens an existing chat for writing (its newest log); refuses while another writer holds it. */
export async function openChat(logDir: string, id: string, options: WriterOptions = {}): Promise<ChatWriter> {
  const loc = locateChat(logDir, id);
  const compress = options.compress ?? true;
  const newest = readdirSync(loc.dir)
    .map(parseLogName)
    .filter((n) => n !== null && n.compressed === compress)
    .sort((a, b) => (b?.format ?? 0) - (a?.format ?? 0))[0];
  if (!newest) throw new OdaError("not_found", `Chat "${id}" has no log to append to.`);
  const rebuilt = await rebuildDetails(join(loc.dir, newest.name), compress);
  const identity = rebuilt.builder.identity(id, loc.cwd);
  const writer = new ChatWriter(
    logDir,
    { id, cwd: loc.cwd, created: identity.created ?? new Date().toISOString(), continues: identity.continues },
    { ...options, format: newest.format },
    rebuilt.builder,
  );
  writer.acquireLock();
  return writer;
}

/**
 * Upgrades a format 1 chat: writes `session.v4.jsonl[.zstd]` beside the old
 * log (header, then each line as a `message` event), leaving the source exactly as it was.
 */
export async function upgradeToFormat4(logDir: string, id: string, options: WriterOptions = {}): Promise<string> {
  const compress = options.compress ?? true;
  const loc = locateChat(logDir, id);
  const source = join(loc.dir, logFileName(1, compress));
  if (!existsSync(source)) throw new OdaError("not_found", `Chat "${id}" has no format 1 log to upgrade.`);
  const events: Record<string, unknown>[] = [];
  const splitter = new LineSplitter();
  let created: string | null = null;
  for await (const item of streamLog(source, { compressed: compress })) {
    if (item.type === "end") break;
    splitter.push(item.data, (_n, _o, bytes) => {
      const line = parseObject(bytes.toString("utf8"));
      if (!line) return true;
      const ts = typeof line.time === "string" ? line.time : undefined;
      created ??= ts ?? null;
      // Format 1 lines become message events; any other object is kept as it is.
      if (line.type === undefined && typeof line.role === "string") {
        events.push({
          type: "message",
          ts,
          role: line.role,
          content: [{ type: "text", text: String(line.text ?? "") }],
        });
      } else events.push(line);
      return true;
    });
  }
  const writer = new ChatWriter(
    logDir,
    { id, cwd: loc.cwd, created: created ?? new Date().toISOString(), continues: null },
    { ...options, format: 4, compress },
  );
  if (existsSync(writer.logPath)) throw new OdaError("refused", `Chat "${id}" already has a format 4 log.`);
  writer.acquireLock();
  await writer.appendEvents(events);
  await writer.close();
  return writer.logPath;
}
