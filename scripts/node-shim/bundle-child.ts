import type { BuildOptions } from "esbuild";
import { serverOnlyAlias } from "./alias";

/**
 * Bundles one child process of a harness (crash, race, kill) into plain ESM
 * for Node with `server-only` emptied; the caller names the entry (or stdin),
 * the outfile and whether packages stay external. esbuild is imported lazily
 * so that loading a harness costs nothing until it bundles.
 */
export async function bundleChild(options: BuildOptions & { outfile: string }): Promise<string> {
  const { build } = await import("esbuild");
  await build({
    bundle: true,
    platform: "node",
    format: "esm",
    alias: serverOnlyAlias,
    logLevel: "silent",
    ...options,
  });
  return options.outfile;
}
