import { join } from "node:path";
import { OdaError } from "../errors";
import { listVersionNames, parseVersionName, readRegularFile, type VersionName } from "./history";
import { MESSAGES } from "./messages";
import { checkMemoryId, checkWorkspace } from "./names";
import { decodeUtf8, parseMemorySource } from "./parse";
import { placeMemory } from "./paths";

/** One saved version of a memory. */
export interface VersionInfo extends VersionName {
  raw: string | null;
  ok: boolean;
  title?: string;
  text?: string;
  enabled?: boolean;
  problem?: string;
}

/** Reads one version file of a history folder; null when it is gone or cannot be opened. */
export async function readVersionFile(history: string, v: VersionName): Promise<VersionInfo | null> {
  const bytes = await readRegularFile(join(history, v.name)).catch(() => null);
  if (!bytes) return null;
  const raw = decodeUtf8(bytes);
  const p = raw === null ? null : parseMemorySource(raw);
  if (p?.ok) return { ...v, raw, ok: true, title: p.title, text: p.text, enabled: p.fields.enabled };
  return {
    ...v,
    raw,
    ok: false,
    problem: p ? (p as { message: string }).message : MESSAGES.cannotRead("it is not valid UTF-8 text."),
  };
}

/** A memory's versions, newest first (also for a deleted memory). */
export async function listVersions(home: string, workspace: string | null, id: string): Promise<VersionInfo[]> {
  const place = await placeMemory(home, checkWorkspace(workspace), checkMemoryId(id));
  const names = await listVersionNames(place.history);
  return (await Promise.all(names.map((v) => readVersionFile(place.history, v)))).filter(
    (v): v is VersionInfo => v !== null,
  );
}

/** One version, or refuses with `No saved version "<name>" of this memory exists.` */
export async function readVersion(
  home: string,
  workspace: string | null,
  id: string,
  name: string,
): Promise<VersionInfo> {
  const place = await placeMemory(home, checkWorkspace(workspace), checkMemoryId(id));
  const v = typeof name === "string" ? parseVersionName(name) : null;
  const info = v ? await readVersionFile(place.history, v) : null;
  if (!info) throw new OdaError("not_found", MESSAGES.noVersion(String(name)));
  return info;
}
