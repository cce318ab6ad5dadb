/**
 * The process the repair kill harness kills: the CLI's `repair` commands
 * (`cli/commands/repair.ts`, the same code `oda-admin repair` runs, without
 * loading every other command's modules, so hundreds of children start
 * quickly). It says `ready` on stdout once loaded, so the harness times the
 * kill from the moment the command starts, not from node's start-up.
 * Run as `node kill-child.mjs apply form:c-1 --home H --logs L --state S`.
 */
import { writeSync } from "node:fs";
import { parseArgs } from "node:util";
import { repairRuns } from "../../cli/commands/repair";
import { makeRoots } from "../../cli/context";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  strict: false,
  options: { home: { type: "string" }, logs: { type: "string" }, state: { type: "string" }, all: { type: "boolean" } },
});
const [verb, ...args] = positionals;
const command = repairRuns[`repair ${verb}` as keyof typeof repairRuns];
const flags = values as Record<string, string | boolean>;
writeSync(1, "ready\n");
process.exitCode = await command({
  args,
  flags,
  json: true,
  roots: makeRoots(flags, process.env),
  out: () => undefined,
  err: () => undefined,
  progress: null,
});
