import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DoctorReport } from "../doctor";
import { OdaError } from "../errors";
import { type CreatedBundle, prepareBundle, writeBundle } from "./create";
import type { RedactKind } from "./detectors";
import type { LeftOut } from "./plan";
import { readBundle } from "./read";
import type { MapEntry } from "./redactor";

/** What `bundle redact` is asked for. */
export interface RedactAgain {
  kinds: RedactKind[];
  keywords: string[];
  /** An earlier map of this bundle (`<file>.map.json`): its placeholders are kept. */
  mapFile: string | null;
  version: string;
}

/** The placeholders of a map file written beside a bundle. */
function readMap(file: string): MapEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new OdaError("bad_input", `${file} is not a bundle's map: ${(error as Error).message}`);
  }
  const entries = (value as { placeholders?: unknown }).placeholders;
  if (
    !Array.isArray(entries) ||
    !entries.every((e) => e && typeof e.placeholder === "string" && typeof e.value === "string")
  )
    throw new OdaError("bad_input", `${file} is not a bundle's map: it has no list of placeholders.`);
  return entries as MapEntry[];
}

/**
 * A bundle received unredacted, or with a keyword forgotten, redacted again into `target` (a new file):
 * checked and unpacked into a private folder beside `target`, every file redacted as `bundle create` does,
 * its doctor report and left-out list carried (redacted), and the map written beside the new bundle. With
 * `mapFile`, every value of that map keeps its placeholder.
 */
export async function redactBundleAgain(source: string, target: string, o: RedactAgain): Promise<CreatedBundle> {
  if (existsSync(target)) throw new OdaError("refused", `${target} already exists; give another file name.`);
  const map = o.mapFile ? readMap(o.mapFile) : [];
  const temp = mkdtempSync(join(dirname(target), ".oda-redact-"));
  try {
    const into = join(temp, "in");
    const manifest = await readBundle(source, into);
    const doctor = JSON.parse(readFileSync(join(into, "doctor.json"), "utf8")) as DoctorReport;
    const home = join(into, "home");
    const logs = join(into, "logs");
    const roots = { home: existsSync(home) ? home : null, logs: existsSync(logs) ? logs : null };
    const scope = {
      chats: roots.logs ? ("all" as const) : null,
      since: null,
      memory: existsSync(join(home, "memory")) || existsSync(join(home, "memory-history")),
      kinds: o.kinds,
      keywords: o.keywords,
      dropText: manifest.scope.dropText,
    };
    const prepared = await prepareBundle(roots, scope, dirname(target), {
      version: o.version,
      again: {
        doctor,
        leftOut: (manifest.leftOut ?? []) as LeftOut[],
        map,
        chats: manifest.scope.chats,
        since: manifest.scope.since,
      },
    });
    return await writeBundle(prepared, target, { version: o.version });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
