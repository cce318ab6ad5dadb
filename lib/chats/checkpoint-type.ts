/**
 * `session.cache.json` (`docs/file-contract.md`, The chat list's checkpoint), as
 * `ZCheckpoint` (`checkpoint-schema.ts`) parses it. `checkpoint.ts` loads the
 * schema only for a file its quick check does not accept: zod's module is most
 * of a new CLI process's start-up. A module of its own so that the schema and
 * the reader share the shape without importing each other.
 */
export interface Checkpoint {
  cacheFormat: 1;
  identity: { id: string; created: string | null; cwd: string | null; continues: string | null };
  log: { name: string; bytes: number; tailSha256: string };
  checkpointAt: string;
  details: {
    title: string | null;
    messages: number;
    lastActivity: string | null;
    model: string | null;
    inputTokens: number;
    outputTokens: number;
  };
}
