// `npm run make-demo -- --out DIR [--seed N] [--chats N]`: a realistic demo Oda home and log folder.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { makeDemo } from "./demo";

const { values } = parseArgs({
  options: { out: { type: "string" }, seed: { type: "string" }, chats: { type: "string" } },
});
const demo = await makeDemo({
  out: resolve(values.out ?? ".oda-demo"),
  seed: Number(values.seed ?? 1),
  chats: values.chats ? Number(values.chats) : undefined,
});
console.log(`Demo data written: Oda home ${demo.home}, log folder ${demo.logs}`);
