import { promises as fsp } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { OdaError } from "../errors";

/** True when `child` is `parent` or lies inside it (both absolute, normalised). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * Checks one path segment that comes from data (an id, a key, a version name):
 * not empty, no NUL, no separator, not `.` or `..`. Throws `invalid_name`.
 */
export function checkSegment(segment: string): void {
  if (
    typeof segment !== "string" ||
    segment === "" ||
    segment === "." ||
    segment === ".." ||
    segment.length > 255 ||
    /[\0/\\]/.test(segment)
  ) {
    throw new OdaError("invalid_name", `Not a valid name: ${JSON.stringify(String(segment).slice(0, 80))}.`);
  }
}

/** realpath of the deepest part of `path` that exists (the rest appended as given). */
async function realpathOfExisting(path: string): Promise<string> {
  const rest: string[] = [];
  let current = path;
  for (;;) {
    try {
      const real = await fsp.realpath(current);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

/**
 * Joins `segments` under `root` and proves the result stays inside the root,
 * symlinks included: each segment is checked by {@link checkSegment}, and the
 * real path of the deepest existing part must lie inside the root's real path.
 * Returns the joined (not the real) path. Throws `invalid_name` or `outside_root`.
 */
export async function resolveInside(root: string, ...segments: string[]): Promise<string> {
  return resolveInsideReal(root, realRootOf(root), ...segments);
}

/**
 * The root's real path, to pass to {@link resolveInsideReal} for several paths
 * of one operation (a token check resolves hundreds of set folders) instead of
 * resolving the root again for each.
 */
export function realRootOf(root: string): Promise<string> {
  return realpathOfExisting(root);
}

/** {@link resolveInside} with the root's real path already known (from {@link realRootOf}, in the same operation). */
export async function resolveInsideReal(
  root: string,
  realRoot: string | Promise<string>,
  ...segments: string[]
): Promise<string> {
  for (const segment of segments) checkSegment(segment);
  const joined = join(root, ...segments);
  if (!isInside(root, joined)) throw new OdaError("outside_root", "That path is outside the Oda home.");
  const [real, realTarget] = await Promise.all([realRoot, realpathOfExisting(joined)]);
  if (!isInside(real, realTarget)) throw new OdaError("outside_root", "That path is outside the Oda home.");
  return joined;
}

/** Like {@link resolveInside}, then creates the folder (and its parents) and checks again. */
export async function ensureFolderInside(root: string, ...segments: string[]): Promise<string> {
  const path = await resolveInside(root, ...segments);
  // mkdir returns the first folder it created; nothing created = nothing new to check
  const created = await fsp.mkdir(path, { recursive: true });
  return created === undefined ? path : resolveInside(root, ...segments);
}
