import "server-only";
import type { Manifest } from "@/lib/bundle/manifest";
import { readOnlySentence } from "@/lib/bundle/messages";
import { bundleRoots, type OpenedBundle, readOpenedBundle } from "@/lib/bundle/unpack";
import { OdaError } from "@/lib/errors";

/**
 * The support bundle this server shows, if any. `oda-admin serve --bundle`
 * sets it in the environment at start (`ODA_ADMIN_BUNDLE`: the unpacked
 * folder); "Open a bundle" in a running dashboard switches the same variables
 * and the roots with them, and "Close" puts the roots it had back.
 */
export interface ActiveBundle {
  dir: string;
  name: string;
  manifest: Manifest;
}

const cache = new Map<string, Manifest>();
const ROOT_KEYS = [
  "ODA_HOME",
  "ODA_LOG_DIR",
  "ODA_ADMIN_STATE",
  "ODA_DEMO",
  "ODA_ADMIN_BUNDLE",
  "ODA_ADMIN_BUNDLE_NAME",
] as const;
type Saved = Partial<Record<(typeof ROOT_KEYS)[number], string>>;
const g = globalThis as { __odaRootsBeforeBundle?: Saved | null };

/** The bundle being shown, or `null` when the server shows live roots. */
export function activeBundle(): ActiveBundle | null {
  const dir = process.env.ODA_ADMIN_BUNDLE;
  if (!dir) return null;
  let manifest = cache.get(dir);
  if (!manifest) {
    manifest = readOpenedBundle(dir);
    cache.set(dir, manifest);
  }
  return { dir, name: process.env.ODA_ADMIN_BUNDLE_NAME || dir, manifest };
}

/** Refuses a change while a bundle is shown: the server's rule, whatever the page shows. */
export function refuseInBundle(): void {
  const bundle = activeBundle();
  if (bundle) throw new OdaError("refused", readOnlySentence(bundle.name));
}

/** Switches this server's roots to an unpacked bundle, read-only, keeping the roots it had. */
export function showBundle(opened: Pick<OpenedBundle, "dir" | "name">): void {
  if (!activeBundle() || g.__odaRootsBeforeBundle === undefined || g.__odaRootsBeforeBundle === null) {
    const saved: Saved = {};
    for (const key of ROOT_KEYS) saved[key] = process.env[key];
    g.__odaRootsBeforeBundle = saved;
  }
  const roots = bundleRoots(opened.dir);
  Object.assign(process.env, {
    ODA_HOME: roots.home,
    ODA_LOG_DIR: roots.logs,
    ODA_ADMIN_STATE: roots.state,
    ODA_DEMO: "0",
    ODA_ADMIN_BUNDLE: opened.dir,
    ODA_ADMIN_BUNDLE_NAME: opened.name,
  });
}

/** Puts back the roots the server had before "Open a bundle"; false when it was started on a bundle. */
export function closeBundle(): boolean {
  const saved = g.__odaRootsBeforeBundle;
  if (!saved) return false;
  for (const key of ROOT_KEYS) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  g.__odaRootsBeforeBundle = null;
  return true;
}
