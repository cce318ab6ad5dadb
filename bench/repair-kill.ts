/** `tsx bench/repair-kill.ts [kills]`: the repair kill harness of lib/repair, run longer than the test does. */
import { runKillHarness } from "../test-support/repair/kill-harness";

const kills = Number(process.argv[2] ?? 500);
const started = Date.now();
const report = await runKillHarness({ kills, seed: Date.now() % 100000, maxKillAfterMs: 80, lanes: 3 });
console.log(
  `${report.kills} kills, ${report.finished} commands finished first, resume finished ${report.resumed.finished} and rolled back ${report.resumed.rolledBack} repairs, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (report.failures.length) {
  console.log(report.failures.join("\n"));
  process.exitCode = 1;
} else console.log("no log lost or torn; every interrupted repair settled");
