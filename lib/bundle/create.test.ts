import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { testScope } from "../../test-support/bundle/test-scope";
import { CHAT_IDS, KEYWORD, plantSecrets, SECRETS } from "../../test-support/bundle/testing";
import { tempFolder } from "../../test-support/test-temp";
import { listAllChats, readChat } from "../chats";
import { encodeName } from "../chats/names";
import { createBundle, prepareBundle } from "./create";
import type { BundleScope } from "./plan";
import { PREVIEW_FILES } from "./preview";
import { readBundle } from "./read";

const temp = () => tempFolder("oda-bundle-");

const everything: BundleScope = testScope({ memory: true, keywords: [KEYWORD] });

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else out.push(path);
  }
  return out;
}

/** A zstd log decoded by the real CLI; a cut last frame makes it exit non-zero after printing what it decoded. */
function unzstd(file: string): string {
  try {
    return execFileSync("zstd", ["-dcq", file], { stdio: ["ignore", "pipe", "ignore"] }).toString("latin1");
  } catch (error) {
    return String((error as { stdout?: Buffer }).stdout ?? "");
  }
}

/** Every byte a support person could see: the archive's files, each zstd log decompressed, and every path. */
function everythingIn(dir: string): string {
  const parts: string[] = [];
  for (const file of walk(dir)) {
    parts.push(file.slice(dir.length));
    const data = readFileSync(file);
    parts.push(data.toString("latin1"));
    if (file.endsWith(".zstd")) {
      parts.push(unzstd(file));
    }
  }
  return parts.join("\n");
}

const secretForms = (value: string) => [value, encodeName(value), JSON.stringify(value).slice(1, -1)];

describe("a redacted bundle", () => {
  it("holds none of the planted secrets' bytes, in any file, log line, checkpoint or folder name", async () => {
    const base = temp();
    const roots = await plantSecrets(base);
    const out = join(base, "bundle.tar.gz");
    const made = await createBundle(roots, everything, out, { version: "test" });
    const unpacked = join(base, "unpacked");
    await readBundle(out, unpacked);
    const seen = everythingIn(unpacked);
    for (const [kind, value] of Object.entries(SECRETS)) {
      if (kind === "machineHome") {
        expect(seen).not.toContain(`${value}/`);
        continue;
      }
      for (const form of secretForms(value)) expect(seen, `${kind} ${form}`).not.toContain(form);
    }
    expect(seen.toLowerCase()).not.toContain(KEYWORD);
    // the map stays beside the bundle and names every value
    const map = readFileSync(made.mapFile, "utf8");
    expect(map).toContain(SECRETS.email);
    expect(made.manifest.counts.replaced.email).toBeGreaterThan(0);
  });

  it("previews, writing nothing, the very counts its manifest then holds", async () => {
    const base = temp();
    const roots = await plantSecrets(base);
    for (const scope of [everything, { ...everything, dropText: true }]) {
      const before = walk(base).sort();
      const preview = await prepareBundle(roots, scope, null, { version: "test" });
      preview.dispose();
      expect(walk(base).sort()).toEqual(before);
      const out = join(base, `bundle-${scope.dropText}.tar.gz`);
      const made = await createBundle(roots, scope, out, { version: "test" });
      const { bytes: _previewBytes, ...counts } = preview.manifest.counts;
      const { bytes: _bytes, ...madeCounts } = made.manifest.counts;
      expect(counts).toEqual(madeCounts);
      expect(Object.values(counts.replaced).reduce((n, v) => n + (v ?? 0), 0)).toBeGreaterThan(20);
      // It lists the files the bundle holds, in its order (the first PREVIEW_FILES; it keeps no entry per file).
      expect(preview.manifest.files.map((f) => f.path)).toEqual(
        made.manifest.files.slice(0, PREVIEW_FILES).map((f) => f.path),
      );
      expect(preview.entries).toEqual([]);
    }
  });

  it("still opens: every chat readable with as many lines as the original, checkpoints that fit", async () => {
    const base = temp();
    const roots = await plantSecrets(base);
    const out = join(base, "bundle.tar.gz");
    await createBundle(roots, everything, out, { version: "test" });
    const unpacked = join(base, "unpacked");
    await readBundle(out, unpacked);
    const before = await listAllChats(roots.logs);
    const after = await listAllChats(join(unpacked, "logs"));
    expect(after.problems).toEqual([]);
    expect(after.chats).toHaveLength(CHAT_IDS.length);
    for (const chat of after.chats) {
      const original = before.chats.find((c) => c.created === chat.created && c.format === chat.format);
      expect(original).toBeDefined();
      const view = await readChat(join(unpacked, "logs"), chat.id);
      const was = await readChat(roots.logs, (original as { id: string }).id);
      expect(view.lines).toBe(was.lines);
      // A lock is judged by its host: on the computer that opens a bundle it is another machine's (live or not).
      const kinds = (ps: { kind: string }[]) => ps.map((p) => p.kind).filter((k) => k !== "lock");
      expect(kinds(view.problems)).toEqual(kinds(was.problems));
      if (was.cacheState === "cached") expect(view.cacheState).toBe("cached");
    }
  });

  it("puts every file in byte for byte when redaction is off", async () => {
    const base = temp();
    const roots = await plantSecrets(base);
    const out = join(base, "bundle.tar.gz");
    await createBundle(roots, { ...everything, kinds: [], keywords: [] }, out, { version: "test" });
    const unpacked = join(base, "unpacked");
    await readBundle(out, unpacked);
    for (const file of walk(roots.logs)) {
      const rel = file.slice(roots.logs.length);
      expect(readFileSync(join(unpacked, "logs", rel)).equals(readFileSync(file))).toBe(true);
    }
  });

  it("uses one placeholder for one value in every file: memory, frontmatter, log lines and folder names", async () => {
    const base = temp();
    const roots = await plantSecrets(base);
    const out = join(base, "bundle.tar.gz");
    const made = await createBundle(roots, everything, out, { version: "test" });
    const map = JSON.parse(readFileSync(made.mapFile, "utf8")) as {
      placeholders: { kind: string; placeholder: string; value: string }[];
    };
    const entry = map.placeholders.find((p) => p.value === SECRETS.email);
    expect(entry).toBeDefined();
    const unpacked = join(base, "unpacked");
    await readBundle(out, unpacked);
    const placeholder = (entry as { placeholder: string }).placeholder;
    const memory = readFileSync(join(unpacked, "home", "memory", "global", "0000000a"), "utf8");
    expect(memory).toContain(`title: Mail ${placeholder}`);
    const logsWith = after(unpacked).filter((f) => unzstd(f).includes(placeholder));
    expect(logsWith.length).toBeGreaterThan(0);
    const checkpoint = readFileSync(join(logsWith[0] as string, "..", "session.cache.json"), "utf8");
    expect(checkpoint).not.toContain(SECRETS.email);
  });

  it("with --drop-text keeps every line, its byte length, roles and usage, and replaces every text", async () => {
    const base = temp();
    const roots = await plantSecrets(base);
    const out = join(base, "bundle.tar.gz");
    await createBundle(roots, { ...everything, kinds: [], keywords: [], dropText: true }, out, { version: "test" });
    const unpacked = join(base, "unpacked");
    await readBundle(out, unpacked);
    const log = walk(roots.logs).find(
      (f) => f.endsWith("session.v4.jsonl.zstd") && f.includes(encodeName(CHAT_IDS[0] as string)),
    ) as string;
    const before = execFileSync("zstd", ["-dcq", log]).toString("utf8").split("\n");
    const afterLines = execFileSync("zstd", ["-dcq", join(unpacked, "logs", log.slice(roots.logs.length))])
      .toString("utf8")
      .split("\n");
    expect(afterLines.map((l) => Buffer.byteLength(l))).toEqual(before.map((l) => Buffer.byteLength(l)));
    const message = JSON.parse(afterLines.find((l) => l.includes('"role":"assistant"')) as string);
    expect(message.usage).toEqual({ input_tokens: 12, output_tokens: 30 });
    expect(message.content[0].text).toMatch(/^x+$/);
    expect(message.content[1].input.path).toMatch(/^x+$/);
    expect(message.content[2].content).toMatch(/^x+$/);
    const memory = readFileSync(join(unpacked, "home", "memory", "global", "0000000a"), "utf8");
    expect(memory).toMatch(/\n\nx+\n$/);
    expect(memory.length).toBe(readFileSync(join(roots.home, "memory", "global", "0000000a"), "utf8").length);
  });
});

function after(dir: string): string[] {
  return walk(join(dir, "logs")).filter((f) => f.endsWith(".zstd"));
}
