// While `npm start` serves demo data, this process plays a running copy of Oda:
// it holds the lock of one demo chat and appends a turn every few seconds, so
// the live lock and the inspector's follow mode can be seen. It stops with its
// parent (the IPC channel closes), and after at most 500 turns.
import { parseArgs } from "node:util";
import { openChat } from "../../test-support/chats/testing";

const { values } = parseArgs({
  options: { logs: { type: "string" }, id: { type: "string" }, every: { type: "string" } },
});
if (!values.logs || !values.id) throw new Error("usage: live-writer --logs DIR --id CHAT [--every SECONDS]");

const writer = await openChat(values.logs, values.id);
let turns = 0;
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  await writer.close();
  process.exit(0);
};
const timer = setInterval(
  async () => {
    if (stopping) return;
    turns++;
    await writer.appendTurn({
      user: `Status check ${turns}: how far is the import?`,
      assistant: `Import ${Math.min(100, turns * 7)} % done; no errors so far.`,
    });
    if (turns >= 500) await stop();
  },
  Number(values.every ?? 8) * 1000,
);
process.on("disconnect", stop);
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
