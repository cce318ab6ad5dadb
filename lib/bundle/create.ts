import { createHash } from "node:crypto";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { dirname, join } from "node:path";
import type { Generation } from "../chats/chat";
import { type RebuiltLog, rebuildDetails } from "../chats/details";
import { BULK_BATCH_OUTPUT } from "../chats/log-stream";
import { BOUNDED_READ, type DoctorReport, formatDoctor, runDoctor } from "../doctor";
import { OdaError } from "../errors";
import { readSettings } from "../memory/settings";
import { writeArchive } from "./archive";
import { SecretRules } from "./gitleaks";
import { BUNDLE_FORMAT, LEFT_OUT_SECTION, type Manifest } from "./manifest";
import { manifestJson } from "./manifest-json";
import { bundleNotes } from "./notes";
import { type BundleScope, type LeftOut, PlannedChats, planBundle, plannedFiles } from "./plan";
import { PrestagedLogs } from "./prestaged";
import { PREVIEW_FILES, PrestagedFlags, PreviewTally } from "./preview";
import { READ_AHEAD_LOGS, READ_AHEAD_MAX_BYTES, readAhead } from "./read-ahead";
import { kindsFrom, type MapEntry, Redactor } from "./redactor";
import { Spool } from "./spool";
import { redactBundlePath, type StagedFile, type StageOptions, stageFiles, stageLogEarly } from "./stage";

/** The roots a bundle is made from. */
export interface BundleRoots {
  home: string | null;
  logs: string | null;
  /** The admin state, whose notes go in with `scope.notes`. */
  state?: string | null;
}

/** Progress while a bundle is made: bytes read of the chosen files, then bytes archived. */
export interface BundleProgress {
  phase: "reading" | "writing";
  done: number;
  total: number;
}

/** Options for `prepareBundle`. */
export interface PrepareOptions {
  version: string;
  onProgress?: (p: BundleProgress) => void;
  /** Counts each decode of a log, by its path (tests: each log is decoded once). */
  onDecode?: (source: string) => void;
  /** Extra home folders to treat as this computer's (tests). */
  homes?: string[];
  hosts?: string[];
  /**
   * Redacting a bundle again (`bundle redact`): its own doctor report and left-out list are carried
   * (redacted) instead of a doctor run over the unpacked copy, this computer's home and name are none of
   * its business, and `map` (an earlier map of the same bundle) keeps its placeholders.
   */
  again?: {
    doctor: DoctorReport;
    leftOut: LeftOut[];
    map: MapEntry[];
    chats: Manifest["scope"]["chats"];
    since: string | null;
  };
}

/** A bundle's contents, staged and checked, ready to be written (or shown as a preview). */
export interface PreparedBundle {
  manifest: Manifest;
  entries: StagedFile[];
  map: MapEntry[];
  /** Removes the staged copies of rewritten logs. */
  dispose: () => void;
}

/** A bundle path redacted like a file's, also when it names a group or chat folder (fewer segments). */
function redactFolderPath(path: string, r: Redactor): string {
  const depth = path.split("/").length;
  const padded = redactBundlePath(`${path}/_/_`, r).split("/");
  return padded.slice(0, depth).join("/");
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
const entryOf = (path: string, data: Buffer): StagedFile => ({
  path,
  size: data.length,
  sha256: createHash("sha256").update(data).digest("hex"),
  from: { data },
  redacted: false,
});

/**
 * Plans, redacts and checksums everything a bundle of `scope` holds. Rewritten
 * logs are staged in a private temporary folder next to `tempNear`; nothing is
 * written into the roots. With `tempNear` `null` (the preview) nothing is
 * written at all: every file is redacted to count what each kind replaces
 * (the same counts the bundle's manifest will hold), but no log is encoded
 * and nothing hashed; a rewritten log's size is then its original's. A
 * preview holds counts, not entries (`lib/bundle/preview.ts`): its manifest
 * lists the first `PREVIEW_FILES` files (its counts cover every file), its
 * redaction report names no file, and `entries` is empty.
 */
export async function prepareBundle(
  roots: BundleRoots,
  scope: BundleScope,
  tempNear: string | null,
  o: PrepareOptions,
): Promise<PreparedBundle> {
  const preview = tempNear === null;
  // Each chat's files are listed again as they are staged (`plannedFiles`), never all held at once.
  const plan = await planBundle(roots, scope, { keepChatFiles: false });
  const chats = roots.logs ? new PlannedChats(roots.logs, plan.chats) : null;
  const here = o.again ? [] : null;
  const redactor = new Redactor(
    {
      homes: [...(here ?? [homedir()]), ...(o.homes ?? [])],
      hosts: [...(here ?? [hostname()]), ...plan.lockHosts, ...(o.hosts ?? [])],
      keywords: scope.keywords,
    },
    kindsFrom(scope),
    !preview,
  );
  if (o.again) redactor.seed(o.again.map);
  const tempDir = tempNear === null ? null : mkdtempSync(join(tempNear, ".oda-bundle-"));
  const spool = tempDir === null ? null : new Spool(join(tempDir, "spool"));
  const dispose = () => {
    spool?.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  };
  try {
    const total = plan.bytes;
    let done = 0;
    const onBytes = (n: number) => {
      done += n;
      o.onProgress?.({ phase: "reading", done: Math.min(done, total), total });
    };
    const leftOut = plan.leftOut;
    // A preview holds counts, not entries (`lib/bundle/preview.ts`).
    const flags = preview && chats ? new PrestagedFlags(chats, plan.compress) : null;
    const tally = preview ? new PreviewTally() : null;
    const fileMaxBytes = roots.home ? (await readSettings(roots.home)).limits.fileMaxBytes : undefined;
    const stage: StageOptions = {
      redactor,
      dropText: scope.dropText,
      spool,
      onBytes,
      leftOut,
      fileMaxBytes,
      prestaged: flags ?? (chats ? new PrestagedLogs(chats) : new Map()),
      onDecode: o.onDecode,
    };
    // Each log is read once: the doctor reads every chat's current log through, and a log that goes into the
    // bundle is redacted in that same read (`stageLogEarly`); `stageFiles` then takes it as it was staged.
    const found = o.again
      ? o.again.doctor
      : await runDoctor(roots, { ...BOUNDED_READ, rebuild: earlyStager(chats, stage) });
    const files = await stageFiles(plannedFiles(plan, roots.logs), stage, tally?.add);
    if (scope.notes && !roots.state)
      throw new OdaError("bad_input", "Notes go into a bundle from the admin state: give it with --state DIR.");
    if (scope.notes && roots.state) {
      const notes = await bundleNotes(
        roots.state,
        roots.logs,
        plan.chats.map((c) => c.id),
        { redactor, dropText: scope.dropText, compress: plan.compress },
      );
      if (tally) for (const n of notes) tally.add(n);
      else files.push(...notes);
    }
    // What was chosen but is not in the bundle, in its report too (as the manifest lists it).
    redactor.file = "manifest.json";
    const notIn = leftOut.map((l) => ({
      path: redactFolderPath(l.path, redactor),
      reason: l.reason,
      message: redactor.redactText(l.message),
    }));
    redactor.file = "doctor.json";
    const doctor = redactor.redactJson(found) as DoctorReport;
    // Carried from the bundle redacted again: its report already lists what it left out.
    if (o.again) notIn.unshift(...(redactor.redactJson(o.again.leftOut) as LeftOut[]));
    if (notIn.length && !o.again)
      doctor.sections.push({
        name: LEFT_OUT_SECTION,
        problems: notIn.map((l) => ({ path: l.path, message: l.message })),
      });
    redactor.file = "manifest.json";
    const createdAt = new Date().toISOString();
    const reports = [
      entryOf("doctor.json", json(doctor)),
      entryOf("doctor.txt", Buffer.from(formatDoctor(doctor, `Oda Admin doctor report, ${createdAt}`))),
    ];
    const all = [...reports, ...files];
    const listed = tally ? [...reports, ...tally.listed].slice(0, PREVIEW_FILES) : all;
    const manifest: Manifest = {
      bundleFormat: BUNDLE_FORMAT,
      odaAdminVersion: o.version,
      createdAt,
      scope: {
        chats: o.again
          ? (redactor.redactJson(o.again.chats) as Manifest["scope"]["chats"])
          : scope.chats === "all"
            ? "all"
            : [...new Set(plan.chats.map((c) => redactor.redactText(c.id)))],
        since: o.again ? o.again.since : scope.since,
        memory: scope.memory,
        redact: [...kindsFrom(scope)].sort(),
        keywords: scope.keywords.length,
        dropText: scope.dropText,
        ...(scope.notes ? { notes: true } : {}),
      },
      counts: {
        files: all.length + (tally?.files ?? 0),
        bytes: all.reduce((n, f) => n + f.size, 0) + (tally?.bytes ?? 0),
        // A chat stored in two places is one chat (both its copies are in).
        chats: new Set(plan.chats.map((c) => c.id)).size,
        memories: plan.files.filter((f) => f.role === "memory").length,
        ...(scope.notes
          ? { notes: files.filter((f) => f.path.startsWith("notes/")).length + (tally?.notes ?? 0) }
          : {}),
        redactedFiles: files.filter((f) => f.redacted).length + (tally?.redacted ?? 0),
        replaced: { ...redactor.replaced },
        problems: doctor.sections.reduce((n, s) => n + s.problems.length, 0),
        leftOut: notIn.length,
      },
      // A bundle's list is its staged files themselves (`manifestJson` writes only what the manifest names).
      files: preview ? listed.map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 })) : all,
      redaction: {
        keyRules: `gitleaks ${SecretRules.source.repository} at ${SecretRules.source.commit}`,
        kinds: redactor.report(),
      },
      leftOut: notIn,
    };
    return {
      manifest,
      entries: preview ? [] : [entryOf("manifest.json", manifestJson(manifest)), ...all],
      map: redactor.mapEntries(),
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * The doctor's reader of a chat's current log (`SummarizeOptions.rebuild`): a log the bundle holds is redacted
 * in the same read, one at a time (the spool has one writer, the redactor one file being redacted), a small one
 * read ahead meanwhile; any other is read as the doctor reads it.
 */
function earlyStager(chats: PlannedChats | null, stage: StageOptions): (current: Generation) => Promise<RebuiltLog> {
  // A plan keeps no chat's files: the planned file of the log the doctor reads is made from what it read.
  const logOf = (current: Generation) => chats?.plannedLog(current);
  const passThrough = stage.redactor.off && !stage.dropText;
  let queue: Promise<unknown> = Promise.resolve();
  const read = (current: Generation) => {
    stage.onDecode?.(current.path);
    return rebuildDetails(current.path, current.compressed, { batchOutput: BULK_BATCH_OUTPUT });
  };
  // Small logs are read and decoded while the ones before them are redacted (`lib/bundle/read-ahead.ts`).
  let readingAhead = 0;
  return async (current) => {
    const f = logOf(current);
    if (!f || passThrough || stage.prestaged?.has(f.source)) return read(current);
    const early = f.size <= READ_AHEAD_MAX_BYTES && readingAhead < READ_AHEAD_LOGS;
    if (early) readingAhead++;
    const ahead = early ? readAhead(f.source, f.compressed ?? true) : undefined;
    const turn = queue.then(async () => {
      try {
        return await stageLogEarly(f, stage, await ahead);
      } finally {
        if (early) readingAhead--;
      }
    });
    queue = turn.catch(() => {});
    return (await turn) ?? read(current);
  };
}

/**
 * What `createBundle` wrote. Its manifest lists the staged files themselves (each with more fields than
 * `manifest.json` holds: only `path`, `size` and `sha256` went in); `listedFiles` makes a list to send on.
 */
export interface CreatedBundle {
  file: string;
  mapFile: string;
  manifest: Manifest;
}

/** The first `max` files of a manifest as `manifest.json` lists them (a bundle thread sends no more back). */
export function listedFiles(manifest: Manifest, max: number): Manifest["files"] {
  return manifest.files.slice(0, max).map((f) => ({ path: f.path, size: f.size, sha256: f.sha256 }));
}

/** Writes the bundle to `target` (a new file) and the placeholder map beside it, never into it. */
export async function createBundle(
  roots: BundleRoots,
  scope: BundleScope,
  target: string,
  o: PrepareOptions,
): Promise<CreatedBundle> {
  return writeBundle(await prepareBundle(roots, scope, dirname(target), o), target, o);
}

/** Writes a prepared bundle to `target` and its placeholder map beside it. */
export async function writeBundle(prepared: PreparedBundle, target: string, o: PrepareOptions): Promise<CreatedBundle> {
  const partial = `${target}.partial-${process.pid}`;
  try {
    const total = prepared.entries.reduce((n, f) => n + f.size, 0);
    let done = 0;
    await writeArchive(partial, prepared.entries, (n) => {
      done += n;
      o.onProgress?.({ phase: "writing", done, total });
    });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    prepared.dispose();
  }
  const mapFile = `${target}.map.json`;
  writeFileSync(mapFile, json({ bundle: target, createdAt: prepared.manifest.createdAt, placeholders: prepared.map }), {
    mode: 0o600,
  });
  return { file: target, mapFile, manifest: prepared.manifest };
}
