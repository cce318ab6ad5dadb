import { doctorCommand } from "./commands/doctor";
import { memoryCommands } from "./commands/memory";
import { searchCommands } from "./commands/search";
import { sessionCommands } from "./commands/sessions";
import { usageCommands } from "./commands/usage";
import type { Command } from "./context";

/** A command's own options, as `node:util` parseArgs takes them. */
export type CommandOptions = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Every CLI command, keyed by its words ("memory list"). Each domain adds its own. */
export const commands: Record<string, { summary: string; usage?: string; options?: CommandOptions; run: Command }> = {
  doctor: doctorCommand,
  ...memoryCommands,
  ...sessionCommands,
  ...searchCommands,
  ...usageCommands,
};
