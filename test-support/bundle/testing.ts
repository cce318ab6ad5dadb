/** Test helpers: an Oda home and log folder with secrets of every kind planted. Not part of the public API. */
import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { join } from "node:path";
import { compress as compressNative } from "@mongodb-js/zstd";
import { encodeName, groupName } from "../../lib/chats/names";
import { appendCutSave, createChat, leaveDeadLock } from "../chats/testing";

/** One planted value of each kind; none of their bytes may appear in a redacted bundle. */
export const SECRETS = {
  email: "ana.lopez@example.org",
  linuxUser: "anasecretuser",
  macUser: "bobsecretuser",
  windowsUser: "carlsecretuser",
  host: "ana-laptop-secret7",
  ipv4: "192.168.17.42",
  ipv6: "fe80::1ff:fe23:4567:890a",
  openai: "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",
  github: "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
  aws: "AKIAZ3MSJV4WCRO2PQ7X",
  slack: "xoxb-1234567890-9876543210aBcDeFgH",
  jwt: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFuYSJ9.c2lnbmF0dXJlc2VjcmV0eHl6",
  hexAfterWord: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b",
  keyword: "projectfalconx",
  machineHome: homedir(),
  machineHost: hostname(),
};

/** The keyword to pass with `--keyword`. */
export const KEYWORD = SECRETS.keyword;

const S = SECRETS;
const cwd = `/home/${S.linuxUser}/${S.keyword}`;
/** Chat ids with secrets in them: their folder names must be redacted and still decode. */
export const CHAT_IDS = [`c-${S.email}`, `c-${S.keyword}-2`, "c-plain-3"];

/** Writes a home (settings, memories, history) and a log folder full of planted secrets. */
export async function plantSecrets(base: string): Promise<{ home: string; logs: string }> {
  const home = join(base, "home");
  const logs = join(base, "logs");
  const global = join(home, "memory", "global");
  const ws = join(home, "memory", "workspaces", `${S.keyword}-ws`);
  mkdirSync(global, { recursive: true });
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(home, "settings.json"), JSON.stringify({ memory: { versionsKept: 10 }, note: `${S.email}` }));
  const memory = (title: string, text: string) =>
    `---\ntitle: ${title}\nenabled: true\nsource: user\nsessionId: ${CHAT_IDS[0]}\ncreated: 2026-11-29T18:24:08.123Z\n---\n\n${text}\n`;
  writeFileSync(
    join(global, "0000000a"),
    memory(`Mail ${S.email}`, `Key ${S.openai} and ${S.github}; host ${S.host}.`),
  );
  writeFileSync(
    join(ws, "0000000b"),
    memory(
      `Falcon ${S.keyword}`,
      `Reports in C:\\Users\\${S.windowsUser}\\docs and /Users/${S.macUser}/x; ${S.machineHome}/notes`,
    ),
  );
  const hist = join(home, "memory-history", "workspaces", `${S.keyword}-ws`, "0000000b");
  mkdirSync(hist, { recursive: true });
  writeFileSync(join(hist, "20261129T182408123Z-chat"), memory("Old", `old text ${S.aws} ${S.ipv4}`));
  writeFileSync(
    join(hist, "deleted.json"),
    JSON.stringify({ deletedAt: "2026-11-29T18:24:08.123Z", title: `gone ${S.email}` }),
  );

  const first = createChat(logs, { id: CHAT_IDS[0] as string, cwd, created: "2026-11-29T18:00:00.000Z" });
  await first.appendEvents([
    { type: "title", ts: "2026-11-29T18:00:01.000Z", title: `About ${S.keyword}` },
    { type: "memory", ts: "2026-11-29T18:00:01.500Z", mode: "full", text: `## Mail\n${S.email}` },
    {
      type: "message",
      ts: "2026-11-29T18:00:02.000Z",
      role: "user",
      content: [{ type: "text", text: `ssh ${S.ipv4} and ${S.ipv6} from ${S.machineHost}, token: ${S.hexAfterWord}` }],
    },
    {
      type: "message",
      ts: "2026-11-29T18:00:03.000Z",
      role: "assistant",
      model: "oda-large-2026-10",
      usage: { input_tokens: 12, output_tokens: 30 },
      content: [
        { type: "text", text: `Reading ${cwd}/notes.md` },
        { type: "tool_use", id: "t1", name: "read_file", input: { path: `${cwd}/.env`, auth: S.jwt } },
        { type: "tool_result", tool_use_id: "t1", content: `SLACK=${S.slack}\nAWS=${S.aws}`, is_error: false },
      ],
    },
    { type: "turn_end", ts: "2026-11-29T18:00:04.000Z" },
  ]);
  await first.close();
  writeFileSync(
    join(first.dir, "session.lock"),
    `${JSON.stringify({ pid: 4242, host: S.host, startedAt: "2026-11-29T18:00:00.000Z" })}\n`,
  );

  const second = createChat(
    logs,
    { id: CHAT_IDS[1] as string, cwd: `/Users/${S.macUser}/work`, created: "2026-11-30T10:00:00.000Z" },
    { format: 1 },
  );
  await second.appendTurn({ user: `mail ${S.email}`, assistant: `done on ${S.host}`, ts: "2026-11-30T10:00:00.000Z" });
  await appendCutSave(
    second,
    [{ time: "2026-11-30T10:05:00.000Z", role: "user", text: `cut ${S.keyword} ${S.email}` }],
    (n) => n - 3,
  );

  const third = createChat(logs, { id: CHAT_IDS[2] as string, cwd: null, created: "2026-12-01T10:00:00.000Z" });
  await third.appendTurn({ user: "nothing private here", assistant: "fine", ts: "2026-12-01T10:00:00.000Z" });
  await third.close();
  leaveDeadLock(third.dir);
  return { home, logs };
}

/** Someone's home folder: in every file of `plantProblems`, so that every file must be rewritten. */
const PRIVATE_CWD = `/home/${S.linuxUser}/reports`;

/**
 * A home and a log folder with one of each problem the doctor finds in files
 * a bundle holds, every one of them holding a private value (the user name in
 * its working folder or text), so each file must be rewritten and keep its
 * problem. A stale lock is left out: whether its holder runs is judged only on
 * the computer that wrote it.
 */
export async function plantProblems(base: string): Promise<{ home: string; logs: string }> {
  const home = join(base, "home");
  const logs = join(base, "logs");
  const global = join(home, "memory", "global");
  mkdirSync(global, { recursive: true });
  writeFileSync(join(home, "settings.json"), JSON.stringify({ memory: { textMaxChars: 100 } }));
  const front = (body: string) => `---\n${body}\n---\n\nMail ${S.email} from ${PRIVATE_CWD}.\n`;
  const memories: Record<string, string | Buffer> = {
    // not valid UTF-8, with a secret in its valid part
    f0000001: Buffer.concat([Buffer.from(`---\ntitle: ${S.email}\n`), Buffer.from([0xff, 0xfe, 0x0a])]),
    f0000002: `no frontmatter at all, ${S.email}\n`,
    f0000003: front(`title: [${S.email}\nenabled: true`),
    f0000004: front(`title: ${S.email}\nenabled: maybe`),
    f0000005: front(`title: ok\nenabled: true\nsource: user`).replace("Mail", `${"long ".repeat(40)}Mail`),
    f0000006: front(`title: fine ${S.email}\nenabled: true\nsource: user`),
  };
  for (const [id, data] of Object.entries(memories)) writeFileSync(join(global, id), data);
  writeFileSync(join(global, "f0000007"), `---\ntitle: big\n---\n${`${S.email} `.repeat(3000)}\n`);

  const chat = async (id: string, events: Record<string, unknown>[], cwd: string | null = PRIVATE_CWD) => {
    const w = createChat(logs, { id, cwd, created: "2026-11-29T18:00:00.000Z" });
    await w.appendEvents(events);
    return w;
  };
  const said = (text: string, ts = "2026-11-29T18:00:02.000Z") => ({
    type: "message",
    ts,
    role: "user",
    content: [{ type: "text", text }],
  });
  // In two places.
  const twice = await chat("c-twice", [said(`see ${PRIVATE_CWD}`)]);
  await twice.close();
  cpSync(twice.dir, join(logs, groupName(`${PRIVATE_CWD}-copy`), encodeName("c-twice")), { recursive: true });
  // A cut last frame.
  const cut = await chat("c-cut", [said(`hello from ${PRIVATE_CWD}`)]);
  await appendCutSave(cut, [said(`cut ${S.email}`, "2026-11-29T18:00:03.000Z")], (n) => n - 3);
  // A complete line that is not JSON, and one that is not an object.
  const bad = await chat("c-bad-line", [said(`first ${S.email}`)]);
  await bad.writeSave(await bad.encodeSave([`not json ${S.email}`, `["an array", "${S.email}"]`]), null);
  await bad.appendEvents([said("after the bad lines", "2026-11-29T18:00:04.000Z")]);
  await bad.close();
  // An unfinished last line inside a complete frame.
  const open = await chat("c-unfinished", [said(`open ${S.email}`)]);
  await open.writeSave(await compressNative(Buffer.from(`{"type":"message","text":"${S.email} and mo`), 3), null);
  open.abandon();
  // A checkpoint whose tail hash does not match, one ahead of its log, one for another log, one unreadable.
  const mismatch = await chat("c-mismatch", [said(`mismatch ${S.email}`)]);
  await mismatch.close();
  const fiddle = (w: { dir: string }, change: (cache: { log: Record<string, unknown> }) => void) => {
    const path = join(w.dir, "session.cache.json");
    const cache = JSON.parse(readFileSync(path, "utf8"));
    change(cache);
    writeFileSync(path, `${JSON.stringify(cache)}\n`);
  };
  fiddle(mismatch, (c) => {
    c.log.tailSha256 = "0".repeat(64);
  });
  const ahead = await chat("c-ahead", [said(`ahead ${S.email}`)]);
  await ahead.close();
  fiddle(ahead, (c) => {
    c.log.bytes = (c.log.bytes as number) + 1000;
  });
  const other = await chat("c-other-log", [said(`other ${S.email}`)]);
  await other.close();
  fiddle(other, (c) => {
    c.log.name = "session.v5.jsonl.zstd";
  });
  const unreadableCache = await chat("c-cache-unreadable", [said(`cache ${S.email}`)]);
  await unreadableCache.close();
  writeFileSync(
    join(unreadableCache.dir, "session.cache.json"),
    `{"cacheFormat": 1, "identity": {"cwd": "${PRIVATE_CWD}`,
  );
  // A header that names another working folder than its group.
  const moved = await chat("c-moved", [said(`moved ${S.email}`)], `${PRIVATE_CWD}/elsewhere`);
  await moved.close();
  const movedTo = join(logs, groupName(PRIVATE_CWD), encodeName("c-moved"));
  renameSync(moved.dir, movedTo);
  // A plain log in a folder of zstd logs.
  const plain = createChat(
    logs,
    { id: "c-plain", cwd: PRIVATE_CWD, created: "2026-11-29T18:00:00.000Z" },
    { compress: false },
  );
  await plain.appendEvents([said(`plain ${S.email}`)]);
  await plain.close();
  // A chat folder with no log (only its checkpoint).
  const nolog = await chat("c-no-log", [said(`no log ${S.email}`)]);
  await nolog.close();
  rmSync(nolog.logPath);
  // A log that cannot be decoded past its first frame.
  const broken = await chat("c-undecodable", [said(`broken ${S.email}`)]);
  await broken.close();
  appendFileSync(broken.logPath, Buffer.from(`garbage that is no zstd frame ${S.email}`));
  return { home, logs };
}
