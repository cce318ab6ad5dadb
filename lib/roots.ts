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

/** Flags win over the environment; the state folder defaults to `<home>/.oda-admin`. */
export function resolveRoots(
  flags: { home?: string; logs?: string; state?: string } = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Roots {
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

/** The sentence a CLI command (and a repair, which the CLI also runs) gives for each root it was not given. */
export const GIVE_ROOT: Readonly<Record<RootName, string>> = {
  home: "Give the Oda home with --home DIR or ODA_HOME.",
  logs: "Give the log folder with --logs DIR or ODA_LOG_DIR.",
  state: "Give the admin state with --state DIR or ODA_ADMIN_STATE (or --home).",
};

/**
 * The root `name`, or a refusal with its one sentence: the CLI's (`GIVE_ROOT`,
 * `bad_input`, exit 2: a usage error) by default; the dashboard passes its own
 * (`server/roots.ts`, `not_found`).
 */
export function requireRoot(
  roots: Partial<Pick<Roots, RootName>>,
  name: RootName,
  refusal: { code: OdaErrorCode; sentences: Readonly<Record<RootName, string>> } = {
    code: "bad_input",
    sentences: GIVE_ROOT,
  },
): string {
  const root = roots[name];
  if (!root) throw new OdaError(refusal.code, refusal.sentences[name]);
  return root;
}
