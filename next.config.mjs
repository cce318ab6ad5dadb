/** @type {import("next").NextConfig} */
const config = {
  // Tests and parallel builds use their own output folder so they never clash.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The installable package ships this self-contained server (no build on the user's machine);
  // `scripts/pack/assemble.mjs` copies it into dist/server without its trimmed node_modules.
  output: "standalone",
  // A dynamic path in lib/ makes Turbopack trace the whole project into the standalone server: keep the
  // generated bench data (gigabytes), test output and packages out of it.
  outputFileTracingExcludes: {
    "*": ["bench/out/**", "test-results/**", "playwright-report/**", "dist/**", "*.tgz", "coverage/**"],
  },
  reactStrictMode: true,
  // The proxy (proxy.ts) gets the URL the server itself saw, so a rewrite built from it stays on the
  // server's own origin: normalised, it reads "localhost", and Next would forward a rewrite to
  // 127.0.0.1 elsewhere as if to another site.
  skipProxyUrlNormalize: true,
  poweredByHeader: false,
  // Native modules stay outside the bundle and load from node_modules.
  serverExternalPackages: ["better-sqlite3", "@mongodb-js/zstd"],
  experimental: {
    // `unauthorized()` and `forbidden()` in pages and actions (the guard behind the proxy).
    authInterrupts: true,
    serverActions: { bodySizeLimit: "2mb" },
  },
  // `npm test` type-checks with tsc as its own step; the build need not do it twice.
  typescript: { ignoreBuildErrors: true },
};

export default config;
