/**
 * The vanishing case of `npm run bench:fuzz` (issue 24): `oda-admin bundle
 * create --all-chats --memory` over a demo of `chats` chats while two chat
 * folders in five are deleted once it has begun reading them. The bundle must
 * be made, exit 1 (some chats were left out), and list the deleted chats in its
 * manifest as gone during collection. Prints the command's peak RSS (VmHWM)
 * against its bound.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { makeDemo } from "../scripts/demo";

const root = resolve(import.meta.dirname, "..");
/** The bound on the command's peak RSS, as for the other whole-folder commands of the bench. */
const BOUND_MB = 400;

function vmHwmKb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Runs the case; `true` when the bundle was made and named the chats deleted meanwhile. */
export async function runVanishing(chats: number, log: (s: string) => void): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), "oda-bench-vanish-"));
  try {
    const t = performance.now();
    const demo = await makeDemo({ out: join(dir, "demo"), seed: 11, chats });
    log(`vanishing: demo of ${chats} chats written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const folders: string[] = [];
    for (const group of readdirSync(demo.logs).sort())
      for (const chat of readdirSync(join(demo.logs, group)).sort()) folders.push(join(demo.logs, group, chat));
    const doomed = folders.filter((_, i) => i % 5 < 2);
    const target = join(dir, "support.tar.gz");
    const child = spawn(
      process.execPath,
      [join(root, "bin", "oda-admin"), "bundle", "create", "--all-chats", "--memory", "-o", target, "--json"],
      {
        env: { ...process.env, ODA_HOME: demo.home, ODA_LOG_DIR: demo.logs, ODA_ADMIN_STATE: join(dir, "state") },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let peakKb = 0;
    let deletedAt = -1;
    const started = performance.now();
    const poll = setInterval(() => {
      peakKb = Math.max(peakKb, vmHwmKb(child.pid as number));
      // Its staging folder appears once the chats to collect are chosen: the folders go now, while it reads.
      if (deletedAt >= 0 || !readdirSync(dir).some((n) => n.startsWith(".oda-bundle-"))) return;
      deletedAt = performance.now() - started;
      for (const d of doomed) rmSync(d, { recursive: true, force: true });
    }, 50);
    child.stdout.on("data", (c: Buffer) => {
      out += c;
    });
    const code = await new Promise<number | null>((done) => child.on("close", done));
    clearInterval(poll);
    let gone = 0;
    let made = false;
    try {
      const doc = JSON.parse(out) as { manifest?: { leftOut?: { reason: string }[] } };
      gone = doc.manifest?.leftOut?.filter((l) => l.reason === "gone").length ?? 0;
      made = existsSync(target);
    } catch {
      log(`vanishing: the command did not print its document (exit ${code}):\n${out.slice(0, 2000)}`);
    }
    const mb = peakKb / 1024;
    log(
      `vanishing: ${doomed.length} of ${folders.length} chat folders deleted ${(deletedAt / 1000).toFixed(1)} s in; exit ${code}, bundle ${made ? "made" : "NOT made"}, ${gone} listed as gone; peak RSS (VmHWM) ${mb.toFixed(0)} MB (bound ${BOUND_MB} MB)`,
    );
    return made && code === 1 && gone > 0 && mb < BOUND_MB;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
