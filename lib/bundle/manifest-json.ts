import type { Manifest } from "./manifest";

/**
 * `manifest.json`'s bytes, exactly `JSON.stringify(manifest, null, 2)` and a
 * line end, written without that one string: a bundle of 100,000 chats lists
 * 200,000 files, and its redaction report names each rewritten one again
 * under every kind that replaced something in it (tens of MB of JSON). That
 * string, with the objects it was made from, took the bundle thread past its
 * heap limit (`lib/bundle/in-worker.ts`). The long lists (`files`, and each
 * kind's `files`) are written into buffers outside the heap, a thousand items
 * at a time; a listed file is written with only the fields the manifest names
 * (a staged file, which carries more, can be listed as it is).
 */

/** A file as the manifest lists it. */
type Listed = Pick<Manifest["files"][number], "path" | "size" | "sha256">;

/** Stands for a list while the rest is serialised (a NUL is in no path nor any other manifest string). */
const HOLE = "\u0000list:";
const BATCH = 1000;

/** An item of a list, as `JSON.stringify(…, null, 2)` writes it `indent` spaces in. */
function itemJson(value: unknown, indent: string): string {
  const v =
    value && typeof value === "object"
      ? { path: (value as Listed).path, size: (value as Listed).size, sha256: (value as Listed).sha256 }
      : value;
  return `${indent}${JSON.stringify(v, null, 2).replaceAll("\n", `\n${indent}`)}`;
}

/** A list as `JSON.stringify(…, null, 2)` writes it on a line `indent` spaces in, in buffers of `BATCH` items. */
function listJson(list: readonly unknown[], indent: string, out: Buffer[]): void {
  if (list.length === 0) {
    out.push(Buffer.from("[]"));
    return;
  }
  const inner = `${indent}  `;
  out.push(Buffer.from("[\n"));
  for (let i = 0; i < list.length; i += BATCH) {
    const part = list.slice(i, i + BATCH).map((v) => itemJson(v, inner));
    out.push(Buffer.from(`${i > 0 ? ",\n" : ""}${part.join(",\n")}`));
  }
  out.push(Buffer.from(`\n${indent}]`));
}

/** The bytes of `manifest.json` for `manifest` (`files` may hold staged files: only their listed fields go in). */
export function manifestJson(manifest: Manifest): Buffer {
  const lists: (readonly unknown[])[] = [];
  const kinds = new Set<unknown>(manifest.redaction?.kinds ?? []);
  const text = `${JSON.stringify(
    manifest,
    function (this: unknown, key: string, value: unknown) {
      if (key !== "files" || !Array.isArray(value) || (this !== manifest && !kinds.has(this))) return value;
      lists.push(value);
      return `${HOLE}${lists.length - 1}`;
    },
    2,
  )}\n`;
  const out: Buffer[] = [];
  let from = 0;
  for (let n = 0; n < lists.length; n++) {
    const mark = JSON.stringify(`${HOLE}${n}`);
    const at = text.indexOf(mark, from);
    if (at < 0) throw new Error("manifest.json: a list's place was not found");
    out.push(Buffer.from(text.slice(from, at)));
    const lineStart = text.lastIndexOf("\n", at) + 1;
    const indent = /^ */.exec(text.slice(lineStart, at))?.[0] ?? "";
    listJson(lists[n] as readonly unknown[], indent, out);
    from = at + mark.length;
  }
  out.push(Buffer.from(text.slice(from)));
  return Buffer.concat(out);
}
