// Generates a demo Oda home and log folder. Grows with lib/memory and lib/sessions.
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { out: { type: "string" }, seed: { type: "string" } } });
const out = resolve(values.out ?? ".oda-demo");
await mkdir(join(out, "home", "memory", "global"), { recursive: true });
await mkdir(join(out, "logs"), { recursive: true });
