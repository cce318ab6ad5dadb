import { type Env, type Roots, resolveRoots } from "../lib/roots";
import type { CommandBundle } from "./bundle-roots";

/** What every command receives: parsed options, the roots and an output sink. */
export interface CommandContext {
  /** Positional arguments after the command words. */
  args: string[];
  /** Flags: `--json` → `{ json: true }`, `--home DIR` → `{ home: "DIR" }`. */
  flags: Record<string, string | boolean>;
  json: boolean;
  roots: Roots;
  /** The support bundle it reads (`--bundle`), whose roots `roots` are; absent on live roots. */
  bundle?: CommandBundle;
  out: (text: string) => void;
  err: (text: string) => void;
  /**
   * Redraws a progress line (`last`: the final one), or null: progress is shown
   * only on a terminal and never with `--json`.
   */
  progress: ((text: string, last: boolean) => void) | null;
  /**
   * The list threads the environment asks for (`listThreadsOf`, read once in `main`): a number to use
   * exactly, `true` to let the listing choose; absent when not asked.
   */
  listThreads?: number | true;
}

/** A command returns its exit code. */
export type Command = (ctx: CommandContext) => Promise<number>;

export function flagString(ctx: CommandContext, name: string): string | undefined {
  const value = ctx.flags[name];
  return typeof value === "string" ? value : undefined;
}

/** The roots from the flags, then the environment the CLI's edge read (`main`). */
export function makeRoots(flags: Record<string, string | boolean>, env: Env): Roots {
  const str = (v: string | boolean | undefined) => (typeof v === "string" ? v : undefined);
  return resolveRoots({ home: str(flags.home), logs: str(flags.logs), state: str(flags.state) }, env);
}

/**
 * `ODA_ADMIN_LIST_THREADS` (for benchmarks): a whole number sets how many list threads a chat listing
 * uses (0: none, at most 16); any other value lets the listing choose (`lib/chats/list-pool.ts`
 * `listThreadCount`); unset, `undefined`.
 */
export function listThreadsOf(env: Env): number | true | undefined {
  const value = env.ODA_ADMIN_LIST_THREADS;
  if (value === undefined) return undefined;
  return /^\d+$/.test(value) ? Math.min(16, Number(value)) : true;
}

/** Prints one JSON document (with --json) or the human text. */
export function emit(ctx: CommandContext, json: unknown, human: () => string): void {
  if (ctx.json) ctx.out(JSON.stringify(json, null, 2));
  else ctx.out(human());
}
