/** Test helpers: an Oda home and log folder with secrets of every kind planted. Not part of the public API. */
import { mkdirSync, writeFileSync } from "node:fs";
import { homedir, hostname } from "node:os";
import { join } from "node:path";
import { appendCutSave, createChat, leaveDeadLock } from "../sessions/testing";

/** One planted value of each kind; none of their bytes may appear in a redacted bundle. */
export const SECRETS = {
  email: "ana.lopez@example.org",
  linuxUser: "anasecretuser",
  macUser: "bobsecretuser",
  windowsUser: "carlsecretuser",
  host: "ana-laptop-secret7",
  ipv4: "192.168.17.42",
  ipv6: "fe80::1ff:fe23:4567:890a",
  openai: "sk-proj-AbCdEf0123456789XyZqRs",
  github: "ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
  aws: "AKIAIOSFODNN7EXAMPLE",
  slack: "xoxb-1234567890-abcdefghijkl",
  jwt: "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJlc2VjcmV0",
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
