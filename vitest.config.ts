import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // Outside Next's react-server build the package throws (see scripts/server-only/register.mjs).
      "server-only": fileURLToPath(new URL("./scripts/server-only/empty.mjs", import.meta.url)),
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
