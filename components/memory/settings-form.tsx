"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSourceInput } from "@/components/shell/source";
import { useRead } from "@/components/shell/use-read";
import { ActionError, unwrap } from "@/components/ui/action-error";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field, inputClass } from "@/components/ui/field";
import { Link } from "@/components/ui/link";
import { Loading, QueryState } from "@/components/ui/query-state";
import { useToast } from "@/components/ui/toast";
import { WriteButton } from "@/components/ui/write-button";
import { checkLimitValue, DEFAULT_LIMITS, LIMIT_NAMES, LIMIT_RANGES, type LimitName } from "@/lib/memory/limits";
import { queryKeys } from "@/lib/query-keys";
import { plural } from "@/lib/words";
import { saveSettingsAction } from "@/server/actions/memory";
import { SettingsProblems } from "./problem-list";
import { memoryQueries } from "./queries";

const LABELS: Record<LimitName, { label: string; unit: string }> = {
  titleMaxChars: { label: "Title limit", unit: "characters" },
  textMaxChars: { label: "Text limit", unit: "characters" },
  fileMaxBytes: { label: "File size limit", unit: "bytes" },
  chatMaxTokens: { label: "What a chat receives", unit: "tokens" },
  versionsKept: { label: "Versions kept per memory", unit: "versions" },
};

const formName = (compressed: boolean) => (compressed ? "zstd-compressed" : "plain");

/** The memory limits and `sessions.compress`, checked in the browser and again by the lib. */
export function SettingsForm() {
  const withSource = useSourceInput();
  const read = useRead();
  const client = useQueryClient();
  const toast = useToast();
  const query = useQuery(memoryQueries.settings());
  const [values, setValues] = useState<Record<LimitName, string> | null>(null);
  const [compress, setCompress] = useState(true);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  // sessions.compress changed: every chat of the old form is now refused until it is converted
  const [formChanged, setFormChanged] = useState(false);
  // A change of form waits for this confirmation, which names how many chats the folder would then refuse.
  const [confirmForm, setConfirmForm] = useState<{
    values: Record<LimitName, number> & { compress: boolean };
    refused: number;
    total: number;
  } | null>(null);
  const count = useMutation({
    mutationFn: (v: Record<LimitName, number> & { compress: boolean }) =>
      read("memory.form-refusals", { compress: v.compress }).then((c) => ({ values: v, ...c })),
    onMutate: () => setFormError(null),
    onError: (e: Error) => setFormError(e.message),
    onSuccess: setConfirmForm,
  });

  useEffect(() => {
    if (!query.data || values) return;
    setValues(
      Object.fromEntries(LIMIT_NAMES.map((n) => [n, String(query.data.limits[n])])) as Record<LimitName, string>,
    );
    setCompress(query.data.compress);
  }, [query.data, values]);

  const save = useMutation({
    mutationFn: (v: Record<LimitName, number> & { compress: boolean }) => unwrap(saveSettingsAction(withSource(v))),
    onMutate: () => {
      setServerErrors({});
      setFormError(null);
    },
    onError: (e: Error) => {
      if (e instanceof ActionError && Object.keys(e.fieldErrors).length) setServerErrors(e.fieldErrors);
      else setFormError(e.message);
    },
    onSuccess: (s) => {
      if (query.data && s.compress !== query.data.compress) setFormChanged(true);
      client.setQueryData(queryKeys.memory.settings(), s);
      void client.invalidateQueries({ queryKey: queryKeys.memory.all });
      toast({ tone: "success", message: "Settings saved." });
    },
  });

  if (!query.isSuccess) return <QueryState query={query} loading="Reading settings.json…" />;
  // The form's values are copied from the first read (above, in an effect): one render without them.
  if (!values) return <Loading label="Reading settings.json…" />;

  const parsed = (n: LimitName) => (values[n].trim() === "" ? Number.NaN : Number(values[n]));
  const clientError = (n: LimitName) => checkLimitValue(n, values[n].trim() === "" ? "" : parsed(n));
  const errorOf = (n: LimitName) => (tried ? clientError(n) : null) ?? serverErrors[n] ?? null;

  return (
    <div className="max-w-2xl space-y-6">
      <SettingsProblems problems={query.data.problems} />
      <form
        noValidate
        aria-label="Memory settings"
        className="space-y-5"
        onSubmit={(e) => {
          e.preventDefault();
          setTried(true);
          if (LIMIT_NAMES.some((n) => clientError(n))) return;
          const next = {
            ...(Object.fromEntries(LIMIT_NAMES.map((n) => [n, parsed(n)])) as Record<LimitName, number>),
            compress,
          };
          if (compress !== query.data.compress) count.mutate(next);
          else save.mutate(next);
        }}
      >
        {LIMIT_NAMES.map((n) => {
          const [min, max] = LIMIT_RANGES[n];
          const error = errorOf(n);
          return (
            <Field
              key={n}
              id={`limit-${n}`}
              label={`${LABELS[n].label} (${LABELS[n].unit})`}
              error={error}
              description={
                <>
                  From {min.toLocaleString("en")} to {max.toLocaleString("en")}; the default is{" "}
                  {DEFAULT_LIMITS[n].toLocaleString("en")}. Setting key <code>memory.{n}</code>.
                </>
              }
            >
              {(control) => (
                <input
                  {...control}
                  type="number"
                  inputMode="numeric"
                  min={min}
                  max={max}
                  step={1}
                  value={values[n]}
                  onChange={(e) => {
                    setValues({ ...values, [n]: e.target.value });
                    // The server's refusal of the old value says nothing about the new one.
                    setServerErrors(({ [n]: _, ...rest }) => rest);
                  }}
                  className={`${inputClass} w-48 tabular-nums`}
                />
              )}
            </Field>
          );
        })}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={compress} onChange={(e) => setCompress(e.target.checked)} />
          <span>
            Compressed chat logs (<code>sessions.compress</code>)
          </span>
        </label>
        {formError && (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {formError}
          </p>
        )}
        <WriteButton type="submit" variant="primary" disabled={save.isPending || count.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </WriteButton>
        {formChanged && (
          <p role="status" className="text-sm">
            The log folder&apos;s form changed, so Oda refuses every chat still in the old form.{" "}
            <Link href="/repairs" className="text-blue-700 underline dark:text-blue-300">
              Convert every chat on the Repairs page
            </Link>
            .
          </p>
        )}
      </form>
      <ConfirmDialog
        open={confirmForm !== null}
        title={confirmForm?.values.compress ? "Keep compressed chat logs?" : "Keep plain chat logs?"}
        confirmLabel={confirmForm?.refused ? `Save and refuse ${plural(confirmForm.refused, "chat")}` : "Save settings"}
        danger={(confirmForm?.refused ?? 0) > 0}
        onCancel={() => setConfirmForm(null)}
        onConfirm={() => {
          if (confirmForm) save.mutate(confirmForm.values);
          setConfirmForm(null);
        }}
      >
        {confirmForm && (
          <p>
            {confirmForm.refused === 0
              ? `No chat would be refused: none of the ${plural(confirmForm.total, "chat")} in the log folder has a ${formName(!confirmForm.values.compress)} log.`
              : `Oda would then refuse ${plural(confirmForm.refused, "chat")} (of ${confirmForm.total.toLocaleString("en")} in the log folder): their logs are ${formName(!confirmForm.values.compress)} but the folder would keep ${formName(confirmForm.values.compress)} logs, until they are converted on the Repairs page.`}
          </p>
        )}
      </ConfirmDialog>
    </div>
  );
}
