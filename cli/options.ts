/** A command's own options, as `node:util` parseArgs takes them. */
export type CommandOptions = Record<
  string,
  // `value`: the word a generated help shows for the option's value (parseArgs ignores it).
  { type: "string" | "boolean"; short?: string; multiple?: boolean; value?: string }
>;

/**
 * `--bundle FILE|DIR` and its `--max-ratio N`: the read commands take them and
 * run on the support bundle's roots (`cli/bundle-roots.ts`); `parse.ts` adds
 * their help.
 */
export const bundleOptions = {
  bundle: { type: "string", value: "FILE|DIR" },
  "max-ratio": { type: "string", value: "N" },
} as const satisfies CommandOptions;
