/**
 * `tsx bench/memory-race.ts [pairs]`: the race harness of lib/memory at full
 * count (default 300 pairs: half CLI/CLI, half server/CLI, then a tenth of
 * that with --expect on both sides, then the outside writer rounds), printing
 * how many saved texts were kept and how many lost.
 */
import { runRaceHarness } from "../test-support/memory/race-harness";
import { runOutsideWriter } from "../test-support/memory/race-writer";

const pairs = Number(process.argv[2] ?? 300);
const started = Date.now();
let failed = false;
for (const expect of [false, true]) {
  const n = expect ? Math.max(2, Math.round(pairs / 10)) : pairs;
  const r = await runRaceHarness({ cliPairs: Math.floor(n / 2), serverPairs: n - Math.floor(n / 2), expect });
  console.log(
    `${expect ? "with --expect" : "plain saves"}: ${r.pairs} pairs, ${r.saved} saved (${r.saved - r.lost.length} kept, ${r.lost.length} lost), ${r.refused} refused (${r.badRefusals.length} without the sentence)`,
  );
  for (const line of [...r.lost, ...r.badRefusals].slice(0, 10)) console.log(`  ${line}`);
  failed ||= r.lost.length > 0 || r.badRefusals.length > 0;
}
const w = await runOutsideWriter({ rounds: Math.max(2, Math.round(pairs / 15)), saves: 30 });
console.log(
  `outside writer: ${w.writes} plain writes, ${w.replaced} replaced by saves, ${w.lost.length} lost; ${w.saved} saves, ${w.refused} refused`,
);
for (const line of [...w.refusals, ...w.lost.slice(0, 10)]) console.log(`  ${line}`);
failed ||= w.lost.length > 0;
console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
if (failed) process.exitCode = 1;
