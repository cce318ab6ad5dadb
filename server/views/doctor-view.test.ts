import { describe, expect, it } from "vitest";
import type { Repairable } from "@/lib/repair";
import { doctorView } from "./doctor-view";

const repair = (id: string): Repairable => ({ id, kind: "form", subject: "", message: "", bytes: 0 });

describe("doctorView", () => {
  it("decodes folder names, links the chat, and Repairs when a repair is offered for it", () => {
    const [logs] = doctorView(
      {
        ok: false,
        sections: [
          {
            name: "chat logs",
            problems: [
              { path: "--%2Fhome%2Fana%2F%C3%9Cbersetzungen--/c%201/session.v5.jsonl", message: "plain" },
              { path: "_no-cwd/c-2/session.lock", message: "stale" },
              { path: "--bad%zz--", message: "does not decode" },
            ],
          },
        ],
      },
      [repair("form:c 1")],
    );
    expect(logs?.items.map((i) => [i.place, i.links])).toEqual([
      [
        "/home/ana/Übersetzungen › chat c 1 › session.v5.jsonl",
        [
          { label: "Open chat c 1", href: "/chats/c%201" },
          { label: "Repair chat c 1", href: "/repairs" },
        ],
      ],
      ["_no-cwd (no working folder) › chat c-2 › session.lock", [{ label: "Open chat c-2", href: "/chats/c-2" }]],
      ["--bad%zz--", []],
    ]);
    expect(logs?.items[0]?.path).toBe("--%2Fhome%2Fana%2F%C3%9Cbersetzungen--/c%201/session.v5.jsonl");
  });

  it("links a memory's editor, its repair, the settings; a leftover lock only says where it is", () => {
    const [memory] = doctorView(
      {
        ok: false,
        sections: [
          {
            name: "memory",
            problems: [
              { path: "memory/workspaces/ws-a/deadbeef", message: "no frontmatter" },
              { path: "memory/global/0badc0de", message: "bad yaml", line: 2 },
              { path: "settings.json", message: "out of range" },
              { path: "memory-history/.lock", message: "left over" },
            ],
          },
        ],
      },
      [{ id: "memory:workspaces/ws-a/deadbeef", kind: "memory", subject: "", message: "", bytes: 0 }],
    );
    expect(memory?.items.map((i) => [i.place, i.links.map((l) => l.href), i.line])).toEqual([
      ["Workspace ws-a › memory deadbeef", ["/memory/workspaces/ws-a/deadbeef", "/repairs"], undefined],
      ["Global set › memory 0badc0de", ["/memory/global/0badc0de"], 2],
      ["Settings (settings.json)", ["/memory/settings"], undefined],
      ["memory-history/.lock", [], undefined],
    ]);
  });
});
