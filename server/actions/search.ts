"use server";

import { z } from "zod";
import { runAction } from "@/server/access/action";
import { readIndexStatus } from "@/server/reads/search";

/**
 * The Refresh button: starts a refresh of the index now (its status and progress are read through
 * `search.status`). A refresh writes only the index in the admin state, so a bundle's tab may run it too.
 */
export async function refreshIndexAction(input: unknown) {
  return runAction(z.object({}), input, (_input, ctx) => readIndexStatus(ctx, "now"));
}
