import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { OdaError } from "../lib/errors";
import type { Roots } from "../lib/roots";
import type { Io } from "./io";

/** The support bundle a read command runs on (`--bundle FILE|DIR`). */
export interface CommandBundle {
  /** Its unpacked folder, `<state>/bundles/<name>`. */
  dir: string;
  /** The file's (or the folder's) name. */
  name: string;
  /** When it was made (its manifest's `createdAt`). */
  createdAt: string;
  /** The admin state it was unpacked into: the settings of this computer's Oda Admin are read there. */
  adminState: string;
}

/**
 * The roots of `--bundle FILE|DIR`: the bundle's Oda home and log folder, and
 * its own state folder (its search index), read only. A file is unpacked into
 * the admin state (`--state`, `ODA_ADMIN_STATE`, `<home>/.oda-admin` or
 * `~/.oda-admin`, as `serve --bundle` does) unless an unpacked copy of it is
 * there already (`openBundle`). Imported only when `--bundle` is given.
 */
export async function bundleRoots(
  flags: Record<string, string | boolean>,
  liveRoots: Roots,
  err: Io["err"],
): Promise<{ roots: Roots; bundle: CommandBundle }> {
  const path = flags.bundle as string;
  if (typeof flags.home === "string" || typeof flags.logs === "string")
    throw new OdaError(
      "bad_input",
      "--bundle reads the bundle's own Oda home and log folder: give --bundle, or --home and --logs, not both.",
    );
  const { openBundle } = await import("../lib/bundle/unpack");
  const adminState =
    liveRoots.state ?? (liveRoots.home ? join(liveRoots.home, ".oda-admin") : join(homedir(), ".oda-admin"));
  const maxRatio = ratioFlag(flags);
  const opened = await openBundle(resolve(path), adminState, {
    maxRatio,
    onUnpack: () => err(`oda-admin: checking and unpacking ${path} into ${join(adminState, "bundles")}…`),
  });
  return {
    roots: { home: opened.home, logs: opened.logs, state: opened.state, demo: false },
    bundle: { dir: opened.dir, name: opened.name, createdAt: opened.manifest.createdAt, adminState },
  };
}

/** `--max-ratio N`: a whole number of at least 1, or the default. */
export function ratioFlag(flags: Record<string, string | boolean>): number | undefined {
  const value = flags["max-ratio"];
  if (typeof value !== "string") return undefined;
  if (!/^[1-9]\d{0,9}$/.test(value)) throw new OdaError("bad_input", "--max-ratio takes a whole number of at least 1.");
  return Number(value);
}
