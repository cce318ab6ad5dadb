// Helpers for the package check: a process tree from /proc, HTTP probes and
// waits on states (never on fixed sleeps).
import { readdirSync, readFileSync } from "node:fs";
import { request } from "node:http";

/** The pids of every live descendant of `pid` (Linux /proc; an empty list elsewhere). */
export function descendants(pid) {
  const parents = new Map();
  let entries = [];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      // The command name in field 2 may hold spaces and parentheses: the fields after it follow the last ")".
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(name), ppid);
    } catch {
      // The process ended while the list was read.
    }
  }
  const found = [];
  const walk = (parent) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

/** True while a process with this pid exists (a zombie counts as gone). */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    const state = readFileSync(`/proc/${pid}/stat`, "utf8");
    return state.slice(state.lastIndexOf(")") + 2)[0] !== "Z";
  } catch (error) {
    return error.code === "EPERM";
  }
}

/** Polls `check` until it returns a truthy value, failing after `ms` with `what`. */
export async function waitFor(what, check, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** One GET: its status, headers and body, or `{ status: 0 }` when nothing answers. */
export function get(url, headers = {}) {
  return new Promise((done) => {
    const req = request(url, { headers }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => done({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on("error", () => done({ status: 0, headers: {}, body: "" }));
    req.end();
  });
}

/**
 * The local addresses listening on `port`, from /proc/net/tcp and tcp6 as
 * "127.0.0.1" or raw hex; null where /proc has no such tables.
 */
export function listeners(port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const found = [];
  let tables = 0;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text;
    try {
      text = readFileSync(table, "utf8");
      tables++;
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      // State 0A is LISTEN.
      if (state !== "0A" || !local?.endsWith(`:${hexPort}`)) continue;
      const address = local.slice(0, -5);
      found.push(address === "0100007F" ? "127.0.0.1" : address);
    }
  }
  return tables ? found : null;
}
