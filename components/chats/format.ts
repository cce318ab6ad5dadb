/** Formatting shared by the chat list and the inspector (plain functions, no React). */

/** `1 234 567` → "1.2 MB"; exact byte counts stay in the title attribute. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return "–";
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A whole number with thousands separators. */
export function formatCount(n: number | null | undefined): string {
  return n === null || n === undefined ? "–" : n.toLocaleString("en");
}

const PLURAL = new Intl.PluralRules("en");

/** A count with its word, singular or plural by the English rules: "1 chat", "2 chats", "0 chats". */
export function countOf(n: number, word: string): string {
  return `${formatCount(n)} ${word}${PLURAL.select(n) === "one" ? "" : "s"}`;
}

/** The working folder as shown: the folder, or `_no-cwd` for chats without one. */
export function workingFolderLabel(cwd: string | null): string {
  return cwd ?? "_no-cwd";
}

/** The lock as one short label. */
export function lockLabel(state: string): string {
  switch (state) {
    case "live":
      return "Oda is writing";
    case "stale":
      return "stale lock";
    case "unknown":
      return "locked (cannot check)";
    default:
      return "free";
  }
}

/** The format as shown: `v4 zstd`, `v1 plain`, or `no log`. */
export function formatLabel(format: number | null, compressed: boolean | null): string {
  if (format === null) return "no log";
  return `v${format}${compressed === null ? "" : compressed ? " zstd" : " plain"}`;
}
