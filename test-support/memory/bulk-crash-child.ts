/**
 * The process the bulk crash harness kills: runs bulk changes over the memories
 * of a home's global set as fast as it can (turn all off or on, undo that,
 * delete all, restore all) and reports each completed one on stdout
 * (`ok <action>`). Run as `node bulk-crash-child.mjs <home>`.
 */
import { writeSync } from "node:fs";
import { bulkChange, listSet, undoBulk } from "../../lib/memory/index";

const [home] = process.argv.slice(2) as [string];
const targets = (process.env.CRASH_IDS ?? "")
  .split(",")
  .filter(Boolean)
  .map((id) => ({ workspace: null, id }));
writeSync(1, "ready\n");
for (;;) {
  const live = (await listSet(home, null)).memories.filter((m) => targets.some((t) => t.id === m.id));
  if (!live.length) {
    await bulkChange(home, targets, { kind: "restore" });
    writeSync(1, "ok restore\n");
    continue;
  }
  const toggled = await bulkChange(home, targets, { kind: live[0]?.enabled ? "off" : "on" });
  writeSync(1, "ok toggle\n");
  if (toggled.bulkId) {
    await undoBulk(home, toggled.bulkId);
    writeSync(1, "ok undo\n");
  }
  await bulkChange(home, targets, { kind: live[0]?.enabled ? "off" : "on" });
  await bulkChange(home, targets, { kind: "delete" });
  writeSync(1, "ok delete\n");
}
