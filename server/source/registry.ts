import "server-only";
import { type OpenedBundle, readOpenedBundle, unpackBundle } from "@/lib/bundle/unpack";
import { OdaError } from "@/lib/errors";
import type { Roots } from "@/lib/roots";
import {
  bundleContext,
  bundleIdOf,
  LIVE_ID,
  liveContext,
  type OpenedBundleInfo,
  readStartRoots,
  requireSourceRoot,
  SOURCE_ID,
  type SourceContext,
} from "./context";

/** The sentence for an address whose source is not open (closed, or never opened). */
export function noSuchSource(id: string): string {
  return `No bundle ${id} is open in this dashboard: open it again on the Bundles page.`;
}

/**
 * The sources one server shows: the live installation (its roots read once at
 * start) and every bundle opened since, side by side. Opening adds one only
 * once it is checked and unpacked (a failed open changes nothing); closing
 * removes that one and nothing else. The unpacked folders stay in the admin
 * state, as `oda-admin bundle open` leaves them.
 */
export class SourceRegistry {
  readonly #live: Roots;
  readonly #bundles = new Map<string, SourceContext>();

  constructor(live: Roots) {
    this.#live = Object.freeze({ ...live });
  }

  /** The live roots this server was started with. */
  get liveRoots(): Readonly<Roots> {
    return this.#live;
  }

  /** The context of source `id`, made now; refused (`not_found`) when no such source is open. */
  resolve(id: string): SourceContext {
    if (id === LIVE_ID) return liveContext(this.#live);
    const found = SOURCE_ID.test(id) ? this.#bundles.get(id) : undefined;
    if (!found) throw new OdaError("not_found", noSuchSource(id));
    return found;
  }

  /** Every opened bundle, in the order they were opened. */
  bundles(): SourceContext[] {
    return [...this.#bundles.values()];
  }

  /** Adds an already unpacked bundle folder (`serve --bundle`, or `open` once unpacked). */
  add(opened: Pick<OpenedBundle, "dir" | "name">, openedAt = new Date()): SourceContext {
    const info: OpenedBundleInfo = {
      dir: opened.dir,
      name: opened.name,
      manifest: readOpenedBundle(opened.dir),
      openedAt: openedAt.toISOString(),
    };
    const id = bundleIdOf(opened);
    const ctx = bundleContext(id, info);
    // The same bundle opened again replaces its own entry, where it was.
    this.#bundles.set(id, ctx);
    return ctx;
  }

  /**
   * Checks and unpacks `file` into the live admin state, then adds it. Any
   * refusal leaves every open source as it was.
   */
  async open(file: string, options: { maxRatio?: number } = {}): Promise<SourceContext> {
    const state = requireSourceRoot(liveContext(this.#live), "state");
    if (this.#opening.has(file)) throw new OdaError("refused", "This bundle is being opened already.");
    this.#opening.add(file);
    try {
      const opened = await unpackBundle(file, state, options);
      return this.add(opened);
    } finally {
      this.#opening.delete(file);
    }
  }

  readonly #opening = new Set<string>();

  /** Closes bundle `id`; refused when it is not open (live cannot be closed). */
  close(id: string): void {
    if (id === LIVE_ID) throw new OdaError("refused", "The live installation cannot be closed.");
    if (!this.#bundles.delete(id)) throw new OdaError("not_found", noSuchSource(id));
  }
}

const KEY = Symbol.for("oda-admin.sources");
const store = globalThis as { [KEY]?: SourceRegistry };

/**
 * This server's sources. The environment is read once, on first use (the start
 * hook, `instrumentation.ts`, makes that the start); one registry per process,
 * kept on `globalThis` because Next bundles pages, route handlers and the start
 * hook apart.
 */
export function sources(): SourceRegistry {
  let registry = store[KEY];
  if (!registry) {
    const start = readStartRoots(process.env);
    registry = new SourceRegistry(start.roots);
    if (start.startBundle) registry.add(start.startBundle);
    store[KEY] = registry;
  }
  return registry;
}
