import { z } from "zod";
import type { Checkpoint } from "./checkpoint-type";

/** `session.cache.json` (`docs/file-contract.md`, The chat list's checkpoint). */
export const ZCheckpoint = z.object({
  cacheFormat: z.literal(1),
  identity: z.object({
    id: z.string(),
    created: z.string().nullable(),
    cwd: z.string().nullable(),
    continues: z.string().nullable(),
  }),
  log: z.object({
    name: z.string(),
    bytes: z.number().int().nonnegative(),
    tailSha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
  checkpointAt: z.string(),
  details: z.object({
    title: z.string().nullable(),
    messages: z.number().int().nonnegative(),
    lastActivity: z.string().nullable(),
    model: z.string().nullable(),
    inputTokens: z.number().nonnegative(),
    outputTokens: z.number().nonnegative(),
  }),
});

// The schema and the interface the listing uses describe one shape (a type error otherwise).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
true satisfies Same<z.infer<typeof ZCheckpoint>, Checkpoint>;
