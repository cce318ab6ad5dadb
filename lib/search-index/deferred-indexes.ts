import { describeThisProcess, judgeHolder, type LockHolder } from "../fs/lock";
import type { Db } from "./per-connection";

/**
 * A first build's secondary indexes of the chats and usage tables (a bulk refresh of an index never built:
 * `refresh.ts`), made once at its end instead of row by row.
 * Profiled on the build's writer (10,000 chats, replaying what the readers sent): the `chats` upsert, which
 * kept 14 indexes up to date (the sort orders, the groups', Insights' covering one), took over half the
 * writer's time; with the indexes dropped for the build and made again at its end the writer's CPU time
 * fell by about two fifths. The tables' own keys (and `chats.id`'s uniqueness, which the upsert needs) stay.
 *
 * The indexes' definitions are kept in `meta` in the same transaction that drops them, so a build that
 * stops half-way (a crash, a kill) leaves what is needed to make them again: `restoreIndexes` runs at the
 * build's end and after an error; when the file is opened (`db.ts`) it runs only if the process that
 * deferred them is gone (judged as `session.lock` is: `lib/fs/lock.ts`), so opening the index beside a
 * running build does not make them under it. The chat list, Home and Insights do not read an index before
 * its first refresh ends; anything that reads it meanwhile reads the tables without them: slower, not wrong.
 */

const META_KEY = "deferredIndexes";
/** The tables whose secondary indexes a first build defers. */
const TABLES = ["chats", "usage"];

interface IndexDef {
  name: string;
  sql: string;
}

/** What `meta` keeps: the definitions, and the process whose build dropped them last. */
interface Kept {
  holder: LockHolder | null;
  indexes: IndexDef[];
}

function kept(db: Db): Kept {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").pluck().get(META_KEY) as string | undefined;
  if (row === undefined) return { holder: null, indexes: [] };
  const parsed = JSON.parse(row) as Partial<Kept> | null;
  return { holder: parsed?.holder ?? null, indexes: Array.isArray(parsed?.indexes) ? parsed.indexes : [] };
}

/** The secondary indexes present now (an `sql` of `null` is a table's own key or uniqueness: never dropped). */
function present(db: Db): IndexDef[] {
  return db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${TABLES.map(() => "?").join(", ")}) ORDER BY name`,
    )
    .all(...TABLES) as IndexDef[];
}

/** Drops the secondary indexes, their definitions kept in `meta` (added to any another build kept). */
export function deferIndexes(db: Db): void {
  db.transaction(() => {
    const defs = kept(db).indexes;
    for (const def of present(db)) {
      if (!defs.some((d) => d.name === def.name)) defs.push(def);
      db.exec(`DROP INDEX "${def.name.replaceAll('"', '""')}"`);
    }
    if (defs.length)
      db.prepare(
        "INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
      ).run(META_KEY, JSON.stringify({ holder: describeThisProcess(), indexes: defs } satisfies Kept));
  }).immediate();
}

/**
 * Makes again every index a build deferred (none: nothing to do), and forgets their definitions;
 * `abandoned`: only when the process that deferred them is gone (the file's opening). False when they
 * are left deferred (to a build still running).
 */
export function restoreIndexes(db: Db, abandoned = false): boolean {
  if (!db.prepare("SELECT 1 FROM meta WHERE key = ?").pluck().get(META_KEY)) return true;
  return db
    .transaction(() => {
      const { holder, indexes } = kept(db);
      if (abandoned && holder && judgeHolder(holder).state !== "stale") return false;
      const have = new Set(present(db).map((d) => d.name));
      for (const def of indexes) if (!have.has(def.name)) db.exec(def.sql);
      db.prepare("DELETE FROM meta WHERE key = ?").run(META_KEY);
      return true;
    })
    .immediate();
}

/** True while a build's indexes are deferred (tests). */
export function indexesDeferred(db: Db): boolean {
  return !!db.prepare("SELECT 1 FROM meta WHERE key = ?").pluck().get(META_KEY);
}
