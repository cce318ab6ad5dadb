import "server-only";
import { type Roots, resolveRoots } from "@/lib/roots";

/** The roots this server was started with (the start script sets the environment). */
export function serverRoots(): Roots {
  return resolveRoots({}, process.env);
}
