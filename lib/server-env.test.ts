import { describe, expect, it } from "vitest";
import { SERVER_THREAD_POOL, withServerThreadPool } from "./server-env.mjs";

describe("withServerThreadPool", () => {
  it("gives the server two pool threads when the environment sets none", () => {
    expect(SERVER_THREAD_POOL).toBe("2");
    expect(withServerThreadPool({ ODA_LOG_DIR: "/logs" })).toEqual({ ODA_LOG_DIR: "/logs", UV_THREADPOOL_SIZE: "2" });
  });

  it("keeps a size the person set, and leaves the environment it was given as it was", () => {
    const env = { UV_THREADPOOL_SIZE: "8" };
    expect(withServerThreadPool(env)).toEqual({ UV_THREADPOOL_SIZE: "8" });
    const unset = { PATH: "/bin" };
    withServerThreadPool(unset);
    expect(unset).toEqual({ PATH: "/bin" });
  });
});
