import { join, resolve } from "node:path";

/** The three folders the dashboard works on (`shared/oda-files.md`, Roots). */
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
  env: NodeJS.ProcessEnv = process.env,
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
