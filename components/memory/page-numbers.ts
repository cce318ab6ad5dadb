/**
 * The contract's limit sentences as a page shows them: the same words, each
 * number grouped the way the page's counters show it ("2,000", not "2000").
 * The lib and the CLI keep the exact sentences of `lib/memory/messages.ts`;
 * only where a page renders one is it formatted. A sentence of any other shape
 * is returned as it is (an id or a workspace key is never touched).
 */
const LIMIT_SENTENCES: RegExp[] = [
  /^(A memory title is limited to )(\d+)( characters; this one has )(\d+)(\.)$/,
  /^(A memory is limited to )(\d+)( characters; this one has )(\d+)(\. Shorten it or split it into several memories\.)$/,
  /^(This change would take the memory a chat in (?:workspace \S+|no workspace) receives to )(\d+)( tokens; the limit is )(\d+)(\.)$/,
  /^((?:The memory could not be changed: )?The memory is longer than )(\d+)( characters or its title longer than )(\d+)(; shorten it in the file\.)$/,
  /^((?:The memory could not be changed: )?The file is larger than )(\d+)( bytes\.)$/,
  // A settings value out of its range (lib/memory/limits.ts): the value quoted from the file stays as it is.
  /^(memory\.[A-Za-z]+ must be a whole number from )(\d+)( to )(\d+)(; .* is not\. The default )(\d+)( is used\.)$/s,
];

const grouped = (digits: string) => Number(digits).toLocaleString("en");

/** `sentence` with its numbers grouped, when it is one of the limit sentences. */
export function withPageNumbers(sentence: string): string {
  for (const shape of LIMIT_SENTENCES) {
    const m = shape.exec(sentence);
    if (!m) continue;
    // The groups alternate: words, a number, words, …
    return m
      .slice(1)
      .map((part, i) => (i % 2 === 1 ? grouped(part) : part))
      .join("");
  }
  return sentence;
}
