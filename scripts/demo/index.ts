import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { makeDemoChats } from "./chats";
import { makeDemoMemories } from "./memories";
import { makeRandom } from "./random";

/** Where `makeDemo` wrote, and the chat the live writer keeps writing. */
export interface Demo {
  home: string;
  logs: string;
  liveChat: string;
}

/**
 * Writes a realistic Oda home and log folder under `out` (replacing what was
 * there), the same for the same seed, through the project's own writers.
 */
export async function makeDemo(options: { out: string; seed?: number; chats?: number }): Promise<Demo> {
  await rm(options.out, { recursive: true, force: true });
  return makeDemoInto({ ...options, home: join(options.out, "home"), logs: join(options.out, "logs") });
}

/** Writes the demo into a given (empty) Oda home and log folder; e2e tests use it for their temp roots. */
export async function makeDemoInto(options: {
  home: string;
  logs: string;
  seed?: number;
  chats?: number;
}): Promise<Demo> {
  const random = makeRandom(options.seed ?? 1);
  const { home, logs } = options;
  await mkdir(home, { recursive: true });
  await mkdir(logs, { recursive: true });
  await makeDemoMemories(home, random);
  const { liveChat } = await makeDemoChats(logs, random, options.chats ?? 200);
  return { home, logs, liveChat };
}
