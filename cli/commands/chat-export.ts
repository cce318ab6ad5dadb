import { once } from "node:events";
import { closeSync, createWriteStream, openSync, unlinkSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { resolve } from "node:path";
import { REDACT_KINDS } from "../../lib/bundle/detectors";
import { kindsFrom, Redactor } from "../../lib/bundle/redactor";
import { formatBinarySize } from "../../lib/bytes";
import { openChatDownload } from "../../lib/chats";
import { OdaError } from "../../lib/errors";
import { EXPORT_FORMATS, type ExportFormat, type ExportSink, exportChat } from "../../lib/export";
import { requireRoot } from "../../lib/roots";
import { type Command, type CommandContext, flagString } from "../context";
import { logFolder } from "../log-folder";

/** The words of every `--keyword` (the option may be given again and again). */
function keywordsOf(ctx: CommandContext): string[] {
  const value = ctx.flags.keyword as unknown;
  const list = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return list.filter((w): w is string => typeof w === "string" && w.length > 0);
}

/**
 * Standard output as the CLI writes it, a line at a time: pieces are cut at
 * their last newline and the rest carried (at most one line) to the next.
 */
function lineSink(ctx: CommandContext): { sink: ExportSink; end: () => void } {
  let carry = "";
  return {
    sink: (piece) => {
      const text = carry + (typeof piece === "string" ? piece : Buffer.from(piece).toString("utf8"));
      const at = text.lastIndexOf("\n");
      if (at < 0) carry = text;
      else {
        ctx.out(text.slice(0, at));
        carry = text.slice(at + 1);
      }
    },
    end: () => {
      if (carry) ctx.out(carry);
    },
  };
}

const WRITE_ROOM = 4 * 1024 * 1024;

/** A new file (never one that exists), written with back-pressure; removed again if the export fails. */
function fileSink(path: string): { sink: ExportSink; end: () => Promise<void>; abort: () => void } {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      throw new OdaError("refused", `${path} already exists; give another file name.`);
    throw error;
  }
  // A few MiB of room: the file is written (on libuv's threads) while the next piece is rendered, instead of
  // every piece waiting for the one before it to reach the disk (16 KiB, the default, made each piece wait).
  const stream = createWriteStream("", { fd, highWaterMark: WRITE_ROOM });
  return {
    sink: async (piece) => {
      if (!stream.write(piece)) await once(stream, "drain");
    },
    end: async () => {
      stream.end();
      await once(stream, "finish");
    },
    abort: () => {
      stream.destroy();
      try {
        closeSync(fd);
      } catch {}
      unlinkSync(path);
    },
  };
}

/**
 * `oda-admin chat export ID --format md|html|jsonl [--redact] [--keyword W]… [-o FILE] [--generation NAME]`:
 * the chat's log as Markdown, one self-contained HTML file or JSONL, streamed
 * (bounded memory whatever the log's size) to FILE or standard output, with
 * the bytes read shown on a terminal. `--redact` replaces what a support
 * bundle replaces, with the same placeholders, and says what it replaced.
 */
const exportChatCommand: Command = async (ctx) => {
  const logDir = requireRoot(ctx.roots, "logs");
  const id = ctx.args[0];
  if (id === undefined) throw new OdaError("bad_input", "Give the chat's id.");
  const format = flagString(ctx, "format") ?? "md";
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new OdaError("bad_input", `--format takes ${EXPORT_FORMATS.join(", ")}; "${format}" is none of them.`);
  const keywords = keywordsOf(ctx);
  const redact = ctx.flags.redact === true || keywords.length > 0;
  const redactor = redact
    ? new Redactor({ homes: [homedir()], hosts: [hostname()], keywords }, kindsFrom({ kinds: REDACT_KINDS, keywords }))
    : null;
  const { generation, stream } = openChatDownload(logDir, id, {
    form: "decompressed",
    generation: flagString(ctx, "generation"),
    compress: logFolder(ctx).compress,
  });
  const output = flagString(ctx, "output");
  const target = output ? fileSink(resolve(output)) : null;
  const stdout = target ? null : lineSink(ctx);
  let shown = "";
  try {
    const result = await exportChat(stream, target?.sink ?? (stdout as { sink: ExportSink }).sink, {
      format: format as ExportFormat,
      id,
      logName: generation.name,
      redactor,
      onProgress: (bytes) => {
        const text = `oda-admin: exported ${formatBinarySize(bytes, "bytes")} of ${generation.name}`;
        if (text === shown) return;
        shown = text;
        ctx.progress?.(text, false);
      },
    });
    ctx.progress?.("", true);
    if (target) await target.end();
    else stdout?.end();
    if (output) ctx.err(`Wrote ${resolve(output)}: ${result.lines} lines of ${generation.name}.`);
    if (redactor) {
      const replaced = Object.entries(redactor.replaced)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      ctx.err(`Replaced: ${replaced || "nothing"}.`);
    }
    if (result.leftOut)
      ctx.err(`${result.leftOut} lines over the line limit were left out: they cannot be redacted line by line.`);
    if (result.error) {
      ctx.err(result.error);
      return 1;
    }
    return result.leftOut ? 1 : 0;
  } catch (error) {
    stream.destroy();
    target?.abort();
    throw error;
  }
};

/** The export under the chat vocabulary, and under the "session" words of `session show`. */
export const chatExportRuns = { "chat export": exportChatCommand };
