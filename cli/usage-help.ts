import { bundleOptions, type CommandOptions } from "./options";

/**
 * The usage and storage commands' help and options, apart from their code so
 * that `--help` and parsing load none of it.
 */
const OPTIONS = `Options:
  --since DATE     from this local day (YYYY-MM-DD or YYYYMMDD)
  --until DATE     to this local day, included
  --cwd DIR        only chats working in this folder ("" for chats with none)
  --model M        only messages of this model
  --tz ZONE        group days in this IANA zone (default: this computer's)
  --no-refresh     read the index as it is (default: refresh it first)`;

const options: CommandOptions = {
  ...bundleOptions,
  since: { type: "string" },
  until: { type: "string" },
  cwd: { type: "string" },
  model: { type: "string" },
  tz: { type: "string" },
  "no-refresh": { type: "boolean" },
};

/** Summary, usage text and options of one usage command, with its `own` options besides the filters. */
export function usageHelp(
  summary: string,
  usage: string,
  own: CommandOptions = {},
): { summary: string; usage: string; options: CommandOptions } {
  const limit = own.limit ? "\n  --limit N        how many chats (default 20; 0: all)" : "";
  return { summary, usage: `Usage: ${usage}\n\n${OPTIONS}${limit}\n`, options: { ...options, ...own } };
}

/** `oda-admin storage`'s summary, usage text and options: it filters by folder only. */
export const storageHelp: { summary: string; usage: string; options: CommandOptions } = {
  summary: "disk space per folder, chat and log generation",
  usage: `Usage: oda-admin storage [options]

Options:
  --cwd DIR        only chats working in this folder ("" for chats with none)
  --no-refresh     read the index as it is (default: refresh it first)
`,
  options: { ...bundleOptions, cwd: { type: "string" }, "no-refresh": { type: "boolean" } },
};
