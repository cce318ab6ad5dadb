/**
 * "1 chat", "2 chats", "12,345 chats": a count with its noun, the number grouped
 * as the pages and reports show numbers. `many` is for nouns whose plural is not
 * the singular plus "s" ("file or folder" → "files or folders").
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}
