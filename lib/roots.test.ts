import { describe, expect, it } from "vitest";
import { MISSING_ROOT, requireRoot } from "./roots";

describe("a root a command needs", () => {
  it("is refused with its one sentence per root (bad_input for the CLI, the code given otherwise), or given back", () => {
    const none = { home: null, logs: null, state: null };
    for (const name of ["home", "logs", "state"] as const) {
      expect(() => requireRoot(none, name)).toThrow(
        expect.objectContaining({ code: "bad_input", message: MISSING_ROOT[name] }),
      );
      expect(() => requireRoot(none, name, "not_found")).toThrow(
        expect.objectContaining({ code: "not_found", message: MISSING_ROOT[name] }),
      );
    }
    expect(MISSING_ROOT).toEqual({
      home: "No Oda home is given: pass --home DIR or set ODA_HOME.",
      logs: "No log folder is given: pass --logs DIR or set ODA_LOG_DIR.",
      state: "No admin state folder is given: pass --state DIR or set ODA_ADMIN_STATE (or give an Oda home).",
    });
    expect(requireRoot({ logs: "/srv/logs" }, "logs")).toBe("/srv/logs");
  });
});
