import { randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { DoctorReport } from "../doctor";
import { OdaError } from "../errors";
import { openRegularSync } from "../fs/open-regular";
import { importNotes } from "../notes";
import { type Manifest, ZManifest } from "./manifest";
import { peekManifest, readBundle } from "./read";

/**
 * Opening a bundle: checked and unpacked into `<admin state>/bundles/<name>/`
 * (`docs/file-contract.md`, What Oda Admin itself writes). The checked files go
 * in `bundle/` (its `home/` and `logs/` are the roots served read-only), the
 * dashboard's own index for it in `state/`. A bundle that fails a check
 * leaves nothing behind.
 */

/** An unpacked bundle. */
export interface OpenedBundle {
  /** `<state>/bundles/<name>`. */
  dir: string;
  home: string;
  logs: string;
  state: string;
  manifest: Manifest;
  /** The bundle file's name, as the banner shows it. */
  name: string;
}

/** The roots of an unpacked bundle folder. */
export function bundleRoots(dir: string): Omit<OpenedBundle, "manifest" | "name"> {
  return { dir, home: join(dir, "bundle", "home"), logs: join(dir, "bundle", "logs"), state: join(dir, "state") };
}

/**
 * Checks `file` (every entry against its SHA-256 in the manifest) and unpacks
 * it below `<stateDir>/bundles/`. The same bundle already unpacked there (the
 * same manifest, byte for byte) is kept as it is, with its own admin state: the
 * notes made in it survive opening it again. Another bundle of the same name
 * and time replaces it.
 *
 * The folder appears whole or not at all: the bundle is unpacked, and its notes
 * imported, into a partial folder that is then renamed into place. Two
 * processes unpacking the same new bundle at once (two CLI runs, or a CLI run
 * beside the dashboard) both end on the one folder the first rename made.
 */
export async function unpackBundle(
  file: string,
  stateDir: string,
  options: { maxRatio?: number } = {},
): Promise<OpenedBundle> {
  const bundles = join(stateDir, "bundles");
  mkdirSync(bundles, { recursive: true });
  const partial = join(bundles, `.partial-${process.pid}-${Date.now()}-${randomUUID().slice(0, 8)}`);
  mkdirSync(partial);
  const name = basename(file);
  let manifest: Manifest;
  let dir: string;
  try {
    manifest = await readBundle(file, join(partial, "bundle"), { maxRatio: options.maxRatio, freeIn: stateDir });
    dir = unpackedDir(stateDir, file, manifest);
    if (isUnpackedCopy(dir, join(partial, "bundle", "manifest.json"))) {
      rmSync(partial, { recursive: true, force: true });
      return { ...bundleRoots(dir), manifest, name };
    }
    const roots = bundleRoots(partial);
    for (const root of [roots.home, roots.logs, roots.state]) mkdirSync(root, { recursive: true });
    // The notes it carries (`bundle create --notes`) are the opened bundle's own, in its admin state.
    await importNotes(join(partial, "bundle", "notes"), roots.state);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  placeUnpacked(partial, dir);
  return { ...bundleRoots(dir), manifest, name };
}

/** True when `dir` is an unpacked copy of the bundle whose manifest is at `manifestPath`, with its admin state. */
function isUnpackedCopy(dir: string, manifestPath: string): boolean {
  const kept = join(dir, "bundle", "manifest.json");
  return existsSync(kept) && existsSync(join(dir, "state")) && readFileSync(kept).equals(readFileSync(manifestPath));
}

/**
 * Renames the unpacked `partial` to `dir`. A folder already there (another
 * bundle of that name and time) is renamed aside first and removed after, so
 * `dir` is never half-written. When another process put the same bundle there
 * between those two renames, its folder is kept and `partial` removed. Any
 * other failure removes `partial` and puts the folder set aside back.
 */
function placeUnpacked(partial: string, dir: string): void {
  let aside: string | null = null;
  try {
    aside = setAside(dir, `${partial}-replaced`);
    renameSync(partial, dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const taken =
      (code === "ENOTEMPTY" || code === "EEXIST") && isUnpackedCopy(dir, join(partial, "bundle", "manifest.json"));
    rmSync(partial, { recursive: true, force: true });
    if (!taken) {
      if (aside) putBack(aside, dir);
      throw error;
    }
  }
  if (aside) rmSync(aside, { recursive: true, force: true });
}

/** Renames `dir` to `aside` when it exists; null when there was nothing to set aside. */
function setAside(dir: string, aside: string): string | null {
  if (!existsSync(dir)) return null;
  try {
    renameSync(dir, aside);
    return aside;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** Renames `aside` back to `dir`; when another folder took `dir` meanwhile, `aside` is removed. */
function putBack(aside: string, dir: string): void {
  try {
    renameSync(aside, dir);
  } catch {
    rmSync(aside, { recursive: true, force: true });
  }
}

/** Where `file` is unpacked below `<stateDir>/bundles/`: its name and creation time. */
function unpackedDir(stateDir: string, file: string, manifest: Manifest): string {
  const stem =
    basename(file)
      .replace(/\.tar\.(gz|zst)$|\.tgz$/, "")
      .replace(/[^A-Za-z0-9._-]/g, "_") || "bundle";
  return join(stateDir, "bundles", `${stem}-${manifest.createdAt.replace(/[^0-9]/g, "").slice(0, 17)}`);
}

/**
 * A bundle to read (the CLI's `--bundle FILE|DIR`), unpacked once: a folder is
 * an unpacked bundle (`<state>/bundles/<name>`, with its `bundle/manifest.json`)
 * and is read as it is; a file whose unpacked copy is already below
 * `<stateDir>/bundles/` (the same manifest, byte for byte: every file's
 * SHA-256 is in it) is read there; any other file is checked and unpacked.
 */
export async function openBundle(
  path: string,
  stateDir: string,
  options: { maxRatio?: number; onUnpack?: () => void } = {},
): Promise<OpenedBundle & { unpacked: boolean }> {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new OdaError("not_found", `No file ${path} exists.`);
    throw error;
  }
  if (isDir) {
    if (!existsSync(join(path, "bundle", "manifest.json")))
      throw new OdaError(
        "not_found",
        `${path} is a folder but not an unpacked bundle (it has no bundle/manifest.json): give the bundle's file, or its folder under <state>/bundles/.`,
      );
    return { ...bundleRoots(path), manifest: readOpenedBundle(path), name: basename(path), unpacked: false };
  }
  const { manifest, bytes } = await peekManifest(path);
  const dir = unpackedDir(stateDir, path, manifest);
  const kept = join(dir, "bundle", "manifest.json");
  if (existsSync(kept) && readFileSync(kept).equals(bytes) && existsSync(join(dir, "state")))
    return { ...bundleRoots(dir), manifest, name: basename(path), unpacked: false };
  options.onUnpack?.();
  return { ...(await unpackBundle(path, stateDir, { maxRatio: options.maxRatio })), unpacked: true };
}

/**
 * An unpacked bundle's own doctor report (`doctor.json`, checked against the
 * manifest when it was unpacked): the problems as the bundle's computer found them.
 */
export function readBundleReport(dir: string): DoctorReport {
  const path = join(dir, "bundle", "doctor.json");
  let fd: number;
  try {
    fd = openRegularSync(path).fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new OdaError("not_found", `No unpacked bundle is in ${dir}.`);
    throw error;
  }
  try {
    return JSON.parse(readFileSync(fd, "utf8")) as DoctorReport;
  } finally {
    closeSync(fd);
  }
}

/** Reads an unpacked bundle's manifest again (the server, for its banner). */
export function readOpenedBundle(dir: string): Manifest {
  const path = join(dir, "bundle", "manifest.json");
  if (!existsSync(path)) throw new OdaError("not_found", `No unpacked bundle is in ${dir}.`);
  return ZManifest.parse(JSON.parse(readFileSync(path, "utf8")));
}
