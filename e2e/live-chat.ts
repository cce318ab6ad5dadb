import { type ChatWriter, createChat } from "../test-support/chats/testing";
import { at } from "./chats-setup";
import { seed, test } from "./fixtures";

/** The chat a describe block's tests write while the page is open. */
export interface LiveChat {
  /** The writer of chat `c-live` in `/home/ana`, holding its lock; set once the test's roots are seeded. */
  writer: ChatWriter;
}

/**
 * For a `test.describe` block: chat `c-live` with one turn, which the test
 * process itself is writing (it holds the chat's lock, as a copy of Oda
 * would) until the test ends.
 */
export function useLiveChat(): LiveChat {
  const live = {} as LiveChat;
  test.use({
    odaSetup: seed(async ({ logs }) => {
      live.writer = createChat(logs, { id: "c-live", cwd: "/home/ana", created: at(0) });
      await live.writer.appendTurn({ user: "Hello while writing", assistant: "Hi", ts: at(1) });
    }),
  });
  test.afterEach(async () => {
    await live.writer.close();
  });
  return live;
}
