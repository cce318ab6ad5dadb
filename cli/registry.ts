import { doctorCommand } from "./commands/doctor";
import type { Command } from "./context";

/** Every CLI command, keyed by its words ("memory list"). Each domain adds its own. */
export const commands: Record<string, { summary: string; usage?: string; run: Command }> = {
  doctor: doctorCommand,
};
