/** `tsx bench/memory-crash.ts [kills]`: the crash harness of lib/memory, run longer than the test does. */
import { runCrashHarness } from "../test-support/memory/crash-harness";

const kills = Number(process.argv[2] ?? 2000);
const started = Date.now();
const report = await runCrashHarness({ kills, seed: Date.now() % 100000, maxKillAfterMs: 80 });
console.log(
  `${report.kills} kills, ${report.savesCompleted} saves completed, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (report.failures.length) {
  console.log(report.failures.join("\n"));
  process.exitCode = 1;
} else console.log("no torn, empty or lost memory file; no lost version");
