import { describe, expect, it } from "vitest";
import { GIVE_ROOT, requireRoot } from "./roots";

describe("a root a command needs", () => {
  it("is refused with the CLI's one sentence per root (bad_input), or given back", () => {
    const none = { home: null, logs: null, state: null };
    for (const name of ["home", "logs", "state"] as const) {
      expect(() => requireRoot(none, name)).toThrow(
        expect.objectContaining({ code: "bad_input", message: GIVE_ROOT[name] }),
      );
    }
    expect(GIVE_ROOT.logs).toBe("Give the log folder with --logs DIR or ODA_LOG_DIR.");
    expect(requireRoot({ logs: "/srv/logs" }, "logs")).toBe("/srv/logs");
  });
});
