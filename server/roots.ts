import "server-only";
import { OdaError } from "@/lib/errors";
import { type Roots, resolveRoots } from "@/lib/roots";

/** The roots this server was started with (the start script sets the environment). */
export function serverRoots(): Roots {
  return resolveRoots({}, process.env);
}

/**
 * The sentence for each root the server was started without: one per root,
 * shown by every action, route handler and page that needs it.
 */
export const MISSING_ROOT = {
  home: "No Oda home is set: start the dashboard with --home DIR or ODA_HOME.",
  logs: "No log folder is set: start the dashboard with --logs DIR or ODA_LOG_DIR.",
  state: "No admin state folder is set: start the dashboard with --state DIR or --home DIR.",
} as const;

// "not_found" for every missing root: a chat page without a log folder answers 404, a route 404.
function requireRoot(name: keyof typeof MISSING_ROOT): string {
  const root = serverRoots()[name];
  if (!root) throw new OdaError("not_found", MISSING_ROOT[name]);
  return root;
}

/** The Oda home this server serves; refused (`not_found`, `MISSING_ROOT.home`) when none is set. */
export function requireHome(): string {
  return requireRoot("home");
}

/** The log folder this server serves; refused (`not_found`, `MISSING_ROOT.logs`) when none is set. */
export function requireLogs(): string {
  return requireRoot("logs");
}

/** The admin state folder (index, repairs, bundles); refused (`not_found`, `MISSING_ROOT.state`) when none is set. */
export function requireState(): string {
  return requireRoot("state");
}
