import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SERVER_MALLOC_TUNABLES, SERVER_NODE_OPTION, SERVER_THREAD_POOL, withServerEnv } from "./server-env.mjs";

/** glibc's dynamic loader, which lists the tunables a process would start with (`--list-tunables`, glibc ≥ 2.33). */
const LOADER = ["/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"].find((p) => existsSync(p));

describe("withServerEnv", () => {
  it("gives the server two pool threads, glibc's fixed malloc thresholds and V8's gc when the environment sets none", () => {
    expect(SERVER_THREAD_POOL).toBe("2");
    expect(SERVER_NODE_OPTION).toBe("--expose-gc");
    expect(withServerEnv({ ODA_LOG_DIR: "/logs" })).toEqual({
      ODA_LOG_DIR: "/logs",
      UV_THREADPOOL_SIZE: "2",
      GLIBC_TUNABLES: SERVER_MALLOC_TUNABLES,
      NODE_OPTIONS: "--expose-gc",
    });
  });

  it("adds the option to NODE_OPTIONS the environment sets, once", () => {
    expect(withServerEnv({ NODE_OPTIONS: "--require /a/guard.cjs" }).NODE_OPTIONS).toBe(
      "--require /a/guard.cjs --expose-gc",
    );
    expect(withServerEnv({ NODE_OPTIONS: "--expose-gc --max-old-space-size=900" }).NODE_OPTIONS).toBe(
      "--expose-gc --max-old-space-size=900",
    );
  });

  it("keeps a pool size and malloc tunables the person set, adds to other tunables, and leaves its argument as it was", () => {
    expect(withServerEnv({ UV_THREADPOOL_SIZE: "8", GLIBC_TUNABLES: "glibc.malloc.arena_max=1" })).toEqual({
      UV_THREADPOOL_SIZE: "8",
      GLIBC_TUNABLES: "glibc.malloc.arena_max=1",
      NODE_OPTIONS: "--expose-gc",
    });
    expect(withServerEnv({ GLIBC_TUNABLES: "glibc.cpu.hwcaps=-AVX2" }).GLIBC_TUNABLES).toBe(
      `glibc.cpu.hwcaps=-AVX2:${SERVER_MALLOC_TUNABLES}`,
    );
    const unset = { PATH: "/bin" };
    withServerEnv(unset);
    expect(unset).toEqual({ PATH: "/bin" });
  });

  it.skipIf(!LOADER)(
    "sets tunables glibc reads: blocks under 32 MiB from the arenas, 2 MiB kept at an arena's top",
    () => {
      const listed = spawnSync(LOADER as string, ["--list-tunables"], {
        env: withServerEnv({}),
        encoding: "utf8",
      }).stdout;
      expect(listed).toMatch(/^glibc\.malloc\.mmap_threshold: 0x2000000 /m);
      expect(listed).toMatch(/^glibc\.malloc\.trim_threshold: 0x200000 /m);
    },
  );
});
