import { kindName } from "@/lib/bundle/kind-words";
import type { Manifest } from "@/lib/bundle/manifest";
import { plural } from "@/lib/words";

/**
 * A bundle's redaction report, as its manifest carries it (never a value):
 * for each kind, how many values and replacements, and in which files. The
 * bundle's Home shows it so support knows what was taken out before reading.
 */
export function RedactionReport({ manifest }: { manifest: Manifest }) {
  const report = manifest.redaction;
  return (
    <section aria-labelledby="home-redaction" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
      <h2 id="home-redaction" className="text-lg font-semibold">
        What was redacted
      </h2>
      {!report ? (
        <p className="mt-2 text-sm">This bundle carries no redaction report (it was made before Oda Admin had one).</p>
      ) : report.kinds.length === 0 ? (
        <p className="mt-2 text-sm">Nothing was replaced (kinds on: {manifest.scope.redact.join(", ") || "none"}).</p>
      ) : (
        <>
          <p className="mt-2 text-sm">
            Values replaced by placeholders before the bundle was sent; keys were found by {report.keyRules}. The map
            back to the values stayed on the computer the bundle was made on.
          </p>
          <table className="mt-2 text-sm">
            <caption className="sr-only">Replacements per kind</caption>
            <thead>
              <tr>
                <th scope="col" className="pr-4 text-left">
                  Kind
                </th>
                <th scope="col" className="pr-4 text-right">
                  Values
                </th>
                <th scope="col" className="pr-4 text-right">
                  Replacements
                </th>
                <th scope="col" className="text-left">
                  Files
                </th>
              </tr>
            </thead>
            <tbody>
              {report.kinds.map((k) => (
                <tr key={k.kind} className="align-top">
                  <th scope="row" className="pr-4 text-left font-normal">
                    {kindName(k.kind)}
                  </th>
                  <td className="pr-4 text-right">{k.values.toLocaleString("en")}</td>
                  <td className="pr-4 text-right">{k.replacements.toLocaleString("en")}</td>
                  <td>
                    <details>
                      <summary className="cursor-pointer">{plural(k.files.length, "file")}</summary>
                      <ul className="font-mono text-xs break-all">
                        {k.files.map((f) => (
                          <li key={f}>{f}</li>
                        ))}
                      </ul>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
