/**
 * The process the crash harness kills: saves changes to the memories of a
 * home as fast as it can and reports each completed save on stdout
 * (`ok <id> <text>`). Run as `node crash-child.mjs <home> <tag>`.
 */
import { writeSync } from "node:fs";
import { changeMemory, listVersions, restoreVersion, setEnabled } from "../../lib/memory/index";

const [home, tag] = process.argv.slice(2) as [string, string];
const ids = (process.env.CRASH_IDS ?? "").split(",").filter(Boolean);
writeSync(1, "ready\n");
for (let i = 0; ; i++) {
  const id = ids[i % ids.length] as string;
  const roll = i % 7;
  if (roll === 5) {
    const versions = await listVersions(home, null, id);
    const v = versions[versions.length - 1];
    if (v?.ok) {
      const r = await restoreVersion(home, null, id, v.name);
      if (r.changed) writeSync(1, `ok ${id} ${v.text}\n`);
    }
  } else if (roll === 6) {
    await setEnabled(home, null, id, i % 2 === 0);
  } else {
    const text = `${tag}-${i}`;
    await changeMemory(home, null, id, { text });
    writeSync(1, `ok ${id} ${text}\n`);
  }
}
