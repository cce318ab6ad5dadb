import { createHash } from "node:crypto";
import { closeSync, createReadStream, readFileSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { openRegularSync } from "../fs/open-regular";
import { checkpointDetails, hashLogTail, parseCheckpoint } from "../sessions/checkpoint";
import { rebuildDetails } from "../sessions/details";
import { decodeName, encodeName, groupName, parseGroupName } from "../sessions/names";
import type { PlannedFile } from "./plan";
import { logNeedsRedaction, redactLog } from "./redact-log";
import { redactMemoryText } from "./redact-memory";
import type { Redactor } from "./redactor";

/** One file as it goes in the bundle: from its original (first `size` bytes), a staged copy, or memory. */
export interface StagedFile {
  path: string;
  size: number;
  sha256: string;
  from: { file: string } | { data: Buffer };
  /** True when the bytes differ from the original's. */
  redacted: boolean;
}

/** Options shared by every file of one bundle. */
export interface StageOptions {
  redactor: Redactor;
  dropText: boolean;
  /** A private folder for rewritten logs (removed by the caller). */
  tempDir: string;
  onBytes?: (n: number) => void;
}

const sha = (data: Buffer) => createHash("sha256").update(data).digest("hex");

/** Reads a small file of the roots (never a FIFO). */
function readSmall(path: string): Buffer {
  const { fd } = openRegularSync(path, { noFollow: true });
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** sha-256 of the first `size` bytes of a file (a log may grow while it is bundled; only these go in). */
export async function hashPrefix(path: string, size: number, onBytes?: (n: number) => void): Promise<string> {
  const hash = createHash("sha256");
  if (size > 0) {
    for await (const chunk of createReadStream(path, { start: 0, end: size - 1, highWaterMark: 1 << 20 })) {
      hash.update(chunk as Buffer);
      onBytes?.((chunk as Buffer).length);
    }
  }
  return hash.digest("hex");
}

/** A bundle path with every folder name redacted as the log folder or the home spells it. */
export function redactBundlePath(path: string, r: Redactor): string {
  const parts = path.split("/");
  if (parts[0] === "logs" && parts.length >= 4) {
    const group = parseGroupName(parts[1] as string);
    parts[1] = group
      ? groupName(group.cwd === null ? null : r.redactText(group.cwd))
      : r.redactText(parts[1] as string);
    const id = decodeName(parts[2] as string);
    parts[2] = id === null ? r.redactText(parts[2] as string) : encodeName(r.redactText(id));
  } else if (
    parts[0] === "home" &&
    (parts[1] === "memory" || parts[1] === "memory-history") &&
    parts[2] === "workspaces"
  ) {
    parts[3] = r.redactWorkspaceKey(parts[3] as string);
  }
  return parts.join("/");
}

function fromData(path: string, original: Buffer, data: Buffer): StagedFile {
  return { path, size: data.length, sha256: sha(data), from: { data }, redacted: !data.equals(original) };
}

/** JSON redacted value by value, written back compactly only when something changed. */
function redactJsonFile(original: Buffer, r: Redactor, fix?: (v: Record<string, unknown>) => void): Buffer {
  const text = original.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return Buffer.from(r.redactText(text));
  }
  const out = r.redactJson(value);
  if (fix && out && typeof out === "object") fix(out as Record<string, unknown>);
  const changed = JSON.stringify(out) !== JSON.stringify(value);
  return changed ? Buffer.from(`${JSON.stringify(out, null, 2)}\n`) : original;
}

/**
 * Stages the files of one bundle in order. Memory files come before their
 * history so that `state.json` can be made to name the redacted file's hash;
 * a chat's logs come before its checkpoint, which is rebuilt to fit them.
 */
export async function stageFiles(files: PlannedFile[], o: StageOptions): Promise<StagedFile[]> {
  const r = o.redactor;
  const out: StagedFile[] = [];
  const shaMap = new Map<string, string>();
  const rewrittenLogs = new Map<string, string>(); // original source → staged copy
  const passThrough = r.off && !o.dropText;
  let n = 0;
  for (const f of files) {
    // Progress counts files as stored, whatever reading them took (a log may decompress tenfold).
    if (out.length) o.onBytes?.(files[out.length - 1]?.size ?? 0);
    const path = redactBundlePath(f.path, r);
    if (f.role === "log") {
      const compressed = f.compressed ?? true;
      if (!passThrough && (o.dropText || (await logNeedsRedaction(f.source, compressed, r)))) {
        const temp = join(o.tempDir, `log-${n++}`);
        const res = await redactLog(f.source, temp, {
          compressed,
          redactor: r,
          dropText: o.dropText,
        });
        if (res.changed) {
          const size = statSync(temp).size;
          rewrittenLogs.set(f.source, temp);
          out.push({ path, size, sha256: await hashPrefix(temp, size), from: { file: temp }, redacted: true });
          continue;
        }
        unlinkSync(temp);
      }
      out.push({
        path,
        size: f.size,
        sha256: await hashPrefix(f.source, f.size),
        from: { file: f.source },
        redacted: false,
      });
      continue;
    }
    const original = readSmall(f.source);
    if (passThrough) {
      out.push(fromData(path, original, original));
      continue;
    }
    if (f.role === "memory" || (f.role === "history" && !/\.json$/.test(f.path))) {
      const data = Buffer.from(redactMemoryText(original.toString("utf8"), r, o.dropText));
      shaMap.set(sha(original), sha(data));
      out.push(fromData(path, original, data));
    } else if (f.role === "history") {
      const fix = (v: Record<string, unknown>) => {
        if (typeof v.sha256 === "string") v.sha256 = shaMap.get(v.sha256) ?? v.sha256;
      };
      out.push(fromData(path, original, redactJsonFile(original, r, fix)));
    } else if (f.role === "checkpoint") {
      out.push(fromData(path, original, await stageCheckpoint(f, original, r, rewrittenLogs)));
    } else out.push(fromData(path, original, redactJsonFile(original, r)));
  }
  if (out.length) o.onBytes?.(files[out.length - 1]?.size ?? 0);
  return out;
}

/** A checkpoint redacted; when its log was rewritten, its offset, tail hash and details are rebuilt to fit. */
async function stageCheckpoint(
  f: PlannedFile,
  original: Buffer,
  r: Redactor,
  rewritten: Map<string, string>,
): Promise<Buffer> {
  const parsed = parseCheckpoint(original.toString("utf8"));
  const dir = f.source.slice(0, -"session.cache.json".length);
  const staged = f.newestLog ? rewritten.get(join(dir, f.newestLog)) : undefined;
  if (!("checkpoint" in parsed) || !staged || parsed.checkpoint.log.name !== f.newestLog)
    return redactJsonFile(original, r);
  const cp = parsed.checkpoint;
  const compressed = cp.log.name.endsWith(".zstd");
  const rebuilt = await rebuildDetails(staged, compressed);
  const bytes = statSync(staged).size;
  const details = rebuilt.details;
  const next = {
    ...cp,
    identity: r.redactJson(cp.identity),
    log: { name: cp.log.name, bytes, tailSha256: hashLogTail(staged, bytes) },
    details: checkpointDetails(details),
  };
  return Buffer.from(`${JSON.stringify(next, null, 2)}\n`);
}
