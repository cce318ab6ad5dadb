import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // Outside Next's react-server build the package throws (see scripts/node-shim/register.mjs).
      "server-only": fileURLToPath(new URL("./scripts/node-shim/empty.mjs", import.meta.url)),
    },
  },
  test: {
    include: [
      "lib/**/*.test.ts",
      "scripts/**/*.test.ts",
      "cli/**/*.test.ts",
      "components/**/*.test.ts",
      "server/**/*.test.ts",
    ],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
