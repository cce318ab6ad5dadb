import type Database from "better-sqlite3";

/** An open index database. */
export type Db = Database.Database;

/**
 * `make(db)` once per connection, kept as long as the connection: the
 * statements a refresh or a search runs thousands of times are prepared once.
 * A module of its own: the modules that call it at load time are imported by db.ts.
 */
export function perConnection<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
}
