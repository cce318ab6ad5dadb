import "server-only";
import { type BundleDiff, diffBundles } from "@/lib/bundle/diff";
import { OdaError } from "@/lib/errors";
import { sources } from "@/server/source/registry";

/**
 * Two opened bundles compared (`oda-admin bundle diff` on their unpacked
 * folders): the Bundles page's "Compare". Ids are data: each is resolved in
 * the registry of opened sources, never joined into a path.
 */
export async function compareOpened(before: string, after: string): Promise<BundleDiff> {
  const folder = (id: string) => {
    const ctx = sources().resolve(id);
    if (!ctx.bundle)
      throw new OdaError("bad_input", "Choose two opened bundles: the live installation is not a bundle.");
    return ctx.bundle.dir;
  };
  return diffBundles(folder(before), folder(after));
}
