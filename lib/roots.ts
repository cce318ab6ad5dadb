import { join, resolve } from "node:path";
import { OdaError, type OdaErrorCode } from "./errors";

/** The three folders the dashboard works on (`docs/file-contract.md`, Roots). */
export interface Roots {
  /** Oda home: memory sets, their history, settings.json. */
  home: string | null;
  /** The log folder: every chat's log. Oda itself has no default. */
  logs: string | null;
  /** The dashboard's own state: index, audit log. */
  state: string | null;
  /** True when the roots are generated demo data. */
  demo: boolean;
}

/** A process's environment as its edge read it (the CLI's `main`, the server's start), handed down. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * Flags win over the environment; the state folder defaults to `<home>/.oda-admin`. `env` is the
 * environment the caller's edge read once (lib/ never reads `process.env` itself).
 */
export function resolveRoots(flags: { home?: string; logs?: string; state?: string }, env: Env): Roots {
  const home = flags.home ?? env.ODA_HOME ?? null;
  const logs = flags.logs ?? env.ODA_LOG_DIR ?? null;
  const stateFlag = flags.state ?? env.ODA_ADMIN_STATE ?? null;
  const state = stateFlag ?? (home ? join(home, ".oda-admin") : null);
  return {
    home: home ? resolve(/*turbopackIgnore: true*/ home) : null,
    logs: logs ? resolve(/*turbopackIgnore: true*/ logs) : null,
    state: state ? resolve(/*turbopackIgnore: true*/ state) : null,
    demo: env.ODA_DEMO === "1",
  };
}

/** Which root a command or page needs. */
export type RootName = "home" | "logs" | "state";

/**
 * The one sentence for each root that was not given (`docs/file-contract.md`,
 * Roots): the same in the CLI, its search and index, the repairs and the
 * dashboard (`oda-admin serve` takes the same flags and environment).
 */
export const MISSING_ROOT: Readonly<Record<RootName, string>> = {
  home: "No Oda home is given: pass --home DIR or set ODA_HOME.",
  logs: "No log folder is given: pass --logs DIR or set ODA_LOG_DIR.",
  state: "No admin state folder is given: pass --state DIR or set ODA_ADMIN_STATE (or give an Oda home).",
};

/**
 * The root `name`, or a refusal with its one sentence (`MISSING_ROOT`). The
 * code is the surface's: `bad_input` by default (the CLI: a usage error, exit
 * 2); the dashboard passes `not_found` (a page or route answers 404).
 */
export function requireRoot(
  roots: Partial<Pick<Roots, RootName>>,
  name: RootName,
  code: OdaErrorCode = "bad_input",
): string {
  const root = roots[name];
  if (!root) throw new OdaError(code, MISSING_ROOT[name]);
  return root;
}
