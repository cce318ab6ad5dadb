import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";
import { OdaError } from "../../lib/errors";

/** The port `npm start` and `oda-admin serve` try first when none is given. */
export const DEFAULT_PORT = 4377;

function listenOn(port: number): Promise<number | null> {
  return new Promise((done) => {
    const server = createServer()
      .once("error", () => done(null))
      .listen(port, "127.0.0.1", () => {
        const address = server.address();
        const bound = typeof address === "object" && address ? address.port : null;
        server.close(() => done(bound));
      });
  });
}

/**
 * The port to serve on. A given port is used as it is (the server says so if it
 * is taken), except 0, which asks the system for a free one now: the server
 * must know its real port before it starts, as the token cookie and the Host
 * check are tied to it. No port: the first free one from 4377, as `npm start`.
 */
export async function choosePort(wanted: string | undefined): Promise<number> {
  if (wanted !== undefined) {
    if (!/^\d{1,5}$/.test(wanted) || Number(wanted) > 65535)
      throw new OdaError("bad_input", "--port takes a port number from 0 to 65535 (0 picks a free one).");
    if (Number(wanted) !== 0) return Number(wanted);
  } else {
    for (let port = DEFAULT_PORT; port < DEFAULT_PORT + 50; port++) if ((await listenOn(port)) !== null) return port;
  }
  const free = await listenOn(0);
  if (free === null) throw new OdaError("io", "No free port was found on 127.0.0.1.");
  return free;
}

function onPath(name: string): boolean {
  return (process.env.PATH ?? "").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** How this system opens a URL in the browser, or null when it has no way. */
function opener(url: string): [string, string[]] | null {
  if (process.platform === "darwin") return ["open", [url]];
  // `start` is a cmd built-in; its first quoted argument is a window title.
  if (process.platform === "win32") return ["cmd", ["/c", "start", '""', url]];
  for (const name of ["xdg-open", "wslview"]) if (onPath(name)) return [name, [url]];
  return null;
}

/** Opens `url` in the browser without waiting for it; false when the system has no way to. */
export function openBrowser(url: string): boolean {
  const command = opener(url);
  if (!command) return false;
  const child = spawn(command[0], command[1], { stdio: "ignore", detached: true, windowsHide: true });
  child.once("error", () => {});
  child.unref();
  return true;
}
