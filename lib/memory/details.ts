import { OdaError } from "../errors";
import { countCodePoints, estimateTokens, type MemoryFields } from "./format";
import { type CurrentState, currentStateOf, readStateRecord } from "./history";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { checkMemoryId, checkWorkspace } from "./names";
import { decodeUtf8, type MemoryParse } from "./parse";
import { type MemoryPlace, placeMemory } from "./paths";
import { readMemoryFile, sha256Hex } from "./read-file";
import { readSettings } from "./settings";

/** What every memory detail holds, whether the file reads or not. */
export interface MemoryDetailBase {
  id: string;
  workspace: string | null;
  /** Relative to the home. */
  path: string;
  /** The file's text (null when it is not UTF-8 or could not be read). */
  raw: string | null;
  /** SHA-256 of the file's bytes: pass it back as `expectedSha256`. */
  sha256: string;
  bytes: number;
  state: CurrentState;
}

/** One memory read in full. A file with a problem has `ok: false` and its problem. */
export type MemoryDetail = MemoryDetailBase &
  (
    | {
        ok: true;
        fields: MemoryFields;
        title: string;
        text: string;
        enabled: boolean;
        titleChars: number;
        textChars: number;
        tokens: number;
      }
    | { ok: false; problem: { message: string; line?: number } }
  );

/** Reads one memory; null when its file does not exist. Names are checked before any file call. */
export async function findMemory(
  home: string,
  workspace: string | null,
  id: string,
  limits?: Limits,
): Promise<MemoryDetail | null> {
  const place = await placeMemory(home, checkWorkspace(workspace), checkMemoryId(id));
  return readMemoryAt(place, limits ?? (await readSettings(home)).limits);
}

/** Reads one memory at places already resolved (a change's own, whose names and home were checked once). */
export async function readMemoryAt(place: MemoryPlace, lim: Limits): Promise<MemoryDetail | null> {
  const { id, workspace } = place;
  const [read, record] = await Promise.all([readMemoryFile(place.file, lim, false), readStateRecord(place.history)]);
  if (!read) return null;
  const bytes = read.bytes ?? new Uint8Array();
  const sha256 = sha256Hex(bytes);
  const base = {
    id,
    workspace,
    path: place.relativePath,
    raw: read.bytes ? decodeUtf8(read.bytes) : null,
    sha256,
    bytes: read.size,
    state: currentStateOf(record, sha256, read.mtimeMs),
  };
  return describeMemory(base, read.parse);
}

/** What the file holds, described: its fields and counts, or its one problem. */
export function describeMemory(base: MemoryDetailBase, p: MemoryParse): MemoryDetail {
  if (!p.ok)
    return {
      ...base,
      ok: false,
      problem: p.line === undefined ? { message: p.message } : { message: p.message, line: p.line },
    };
  return {
    ...base,
    ok: true,
    fields: p.fields,
    title: p.title,
    text: p.text,
    enabled: p.fields.enabled,
    titleChars: countCodePoints(p.title),
    textChars: countCodePoints(p.text),
    tokens: estimateTokens(p.text),
  };
}

/** Reads one memory, or refuses with `No memory with the id "<id>" exists in the global set.` (or `workspace <key>`). */
export async function readMemory(home: string, workspace: string | null, id: string): Promise<MemoryDetail> {
  const found = await findMemory(home, workspace, id);
  if (!found) throw new OdaError("not_found", MESSAGES.noMemoryIn(id, workspace));
  return found;
}
