import "server-only";
import { dirname } from "node:path";
import type { Manifest } from "@/lib/bundle/manifest";
import { readOnlySentence } from "@/lib/bundle/messages";
import { bundleRoots, type OpenedBundle } from "@/lib/bundle/unpack";
import { logFolderOf } from "@/lib/chats/settings";
import { OdaError } from "@/lib/errors";
import { type RootName, type Roots, requireRoot, resolveRoots } from "@/lib/roots";

/**
 * A source is what a page shows: the live installation, or one support bundle
 * opened read-only. Its context is made once at the edge of every page, route
 * handler and server action (`server/source/edge.ts`) and passed down; nothing
 * below reads `process.env` or picks the roots again.
 */
export interface SourceContext {
  /** `live`, or the opened bundle's id (the `<id>` of `/b/<id>/…`). */
  readonly id: string;
  readonly kind: "live" | "bundle";
  readonly roots: Readonly<Roots>;
  /** The log folder and its form (compressed or not: the home's `settings.json`), read when the context was made. */
  readonly log: Readonly<{ dir: string | null; compress: boolean }>;
  /** Only the live installation can write; a bundle's context never can. */
  readonly canWrite: boolean;
  /** Why nothing can be changed here (shown up front beside each disabled control), or null when it can write. */
  readonly readOnly: string | null;
  /** The bundle shown, for a bundle source. */
  readonly bundle: Readonly<OpenedBundleInfo> | null;
  /** What every href of this source starts with: "" for live, `/b/<id>` for a bundle. */
  readonly prefix: string;
}

/** What the Bundles page lists about an opened bundle. */
export interface OpenedBundleInfo {
  /** The unpacked folder, `<admin state>/bundles/<stem>`. */
  dir: string;
  /** The bundle file's name. */
  name: string;
  manifest: Manifest;
  /** When it was opened here (ISO). */
  openedAt: string;
}

/** The id of the live installation's source. */
export const LIVE_ID = "live";

/** A bundle's id: lower-case letters, digits and dashes (it is a URL segment, never a path). */
export const SOURCE_ID = /^[a-z0-9][a-z0-9-]{0,79}$/;

/** The request header the proxy sets from a `/b/<id>/…` address (and strips from every other request). */
export const SOURCE_HEADER = "x-oda-source";

/**
 * The root `name` of this source, or the one "missing root" sentence of `lib/roots.ts` (`MISSING_ROOT`, the
 * CLI's too), as `not_found`: a chat page without a log folder answers 404, a route 404.
 */
export function requireSourceRoot(ctx: SourceContext, name: RootName): string {
  return requireRoot(ctx.roots, name, "not_found");
}

/** The log folder and its form, or the refusal for a missing log folder. */
export function requireLogFolder(ctx: SourceContext): { logDir: string; compress: boolean } {
  return { logDir: requireSourceRoot(ctx, "logs"), compress: ctx.log.compress };
}

/** Refuses a change in a source that cannot write: the server's last guard, whatever the page shows. */
export function requireWritable(ctx: SourceContext): void {
  if (!ctx.canWrite) throw new OdaError("refused", ctx.readOnly ?? "Nothing can be changed here.");
}

/** What the server was started with, read once from its environment. */
export interface StartRoots {
  /** The live roots; home and logs are null when the server was started on a bundle. */
  roots: Roots;
  /** `oda-admin serve --bundle`: the unpacked bundle folder to open at start. */
  startBundle: { dir: string; name: string } | null;
}

/**
 * Reads the environment once, at start. `serve --bundle` hands the unpacked
 * bundle's folders; they become a bundle source, and the live source keeps
 * only the admin state the bundle was unpacked into (`<state>/bundles/<stem>`),
 * so nothing of the bundle is ever writable.
 */
export function readStartRoots(env: Readonly<Record<string, string | undefined>>): StartRoots {
  const dir = env.ODA_ADMIN_BUNDLE;
  if (dir) {
    return {
      roots: { home: null, logs: null, state: dirname(dirname(dir)), demo: false },
      startBundle: { dir, name: env.ODA_ADMIN_BUNDLE_NAME || dir },
    };
  }
  return { roots: resolveRoots({}, env), startBundle: null };
}

/**
 * The log folder and its form, the form read from the settings only when a reader asks for it (once per
 * context): a search or a memory page never needs it, and then reads no `settings.json` for it.
 */
function lazyLogFolder(roots: Roots): Readonly<{ dir: string | null; compress: boolean }> {
  let compress: boolean | undefined;
  return Object.freeze({
    dir: roots.logs,
    get compress() {
      compress ??= logFolderOf(roots).compress;
      return compress;
    },
  });
}

/** The live installation's context, with its log form read now (the settings may change between requests). */
export function liveContext(roots: Roots): SourceContext {
  return Object.freeze({
    id: LIVE_ID,
    kind: "live",
    roots: Object.freeze({ ...roots }),
    log: lazyLogFolder(roots),
    canWrite: true,
    readOnly: null,
    bundle: null,
    prefix: "",
  } as const);
}

/** A bundle's context: its unpacked folders, read-only by construction. */
export function bundleContext(id: string, info: OpenedBundleInfo): SourceContext {
  const r = bundleRoots(info.dir);
  const roots: Roots = { home: r.home, logs: r.logs, state: r.state, demo: false };
  return Object.freeze({
    id,
    kind: "bundle",
    roots: Object.freeze(roots),
    log: lazyLogFolder(roots),
    canWrite: false,
    readOnly: readOnlySentence(info.name),
    bundle: Object.freeze({ ...info }),
    prefix: `/b/${id}`,
  } as const);
}

/** The id an opened bundle gets: its unpacked folder's name, made URL-safe (the same bundle opened again keeps it). */
export function bundleIdOf(opened: Pick<OpenedBundle, "dir">): string {
  const base = opened.dir.split(/[\\/]/).pop() ?? "bundle";
  const id = base
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return SOURCE_ID.test(id) && id !== LIVE_ID ? id : `bundle-${id || "x"}`.slice(0, 80);
}
