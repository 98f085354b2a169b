import { useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { HrAuxRow } from "~/models/hr.server";
import type { GridEdits } from "./aux-grid";
import { commentHrefOf } from "./comment-param";
import { figureInputName } from "./edits";
import type { HrFigureField } from "./figures";
import type { HrGridActionData } from "./grid-page.server";
import { pendingChanges } from "./pending-changes";
import { hrTexts } from "./texts";

/**
 * The grid page's typing state: the typed cells, the changes they make, the JavaScript confirmation and its
 * save (only the changed cells are posted, with confirmed=1).
 */
export function useGridEdits(
  page: { rows: HrAuxRow[]; saveId: string },
  gridUrl: string,
  actionData: HrGridActionData | undefined,
) {
  const submit = useSubmit();
  const [edits, setEdits] = useState<GridEdits>({});
  const [confirming, setConfirming] = useState(false);
  const [clientError, setClientError] = useState<string | null>(null);
  // The rows a confirmed save was made on: once the page holds others (the save's reload), the edits are cleared.
  const savedOnRows = useRef<HrAuxRow[] | null>(null);

  const rowsById = useMemo(() => new Map(page.rows.map((r) => [r.id, r])), [page.rows]);
  const pending = useMemo(() => pendingChanges(edits, rowsById), [edits, rowsById]);

  // A confirmed save reloads the rows: what was typed is now stored (or, on a conflict, replaced by what is).
  useEffect(() => {
    if (savedOnRows.current === null || savedOnRows.current === page.rows) return;
    savedOnRows.current = null;
    setEdits({});
  }, [page.rows]);
  useEffect(() => {
    if (actionData?.error || actionData?.fieldErrors) savedOnRows.current = null;
  }, [actionData]);

  const onEdit = useCallback((id: string, field: HrFigureField, text: string) => {
    setClientError(null);
    setEdits((previous) => ({ ...previous, [id]: { ...previous[id], [field]: text } }));
  }, []);
  const commentHref = useCallback((id: string) => commentHrefOf(gridUrl, id), [gridUrl]);

  /** With JavaScript: check, then confirm in a dialog. */
  const askToConfirm = () => {
    if (pending.invalid > 0) return setClientError(hrTexts.fixErrors);
    if (pending.changes.length === 0) return setClientError(hrTexts.noChanges);
    setClientError(null);
    setConfirming(true);
  };

  const confirmSave = () => {
    const form = new FormData();
    form.set("intent", "save");
    form.set("confirmed", "1");
    form.set("saveId", page.saveId);
    for (const change of pending.changes) form.set(figureInputName(change.field, change.id), change.text);
    savedOnRows.current = page.rows;
    setConfirming(false);
    submit(form, { method: "post", action: gridUrl, preventScrollReset: true });
  };

  const discard = () => setEdits({});

  return {
    edits,
    rowsById,
    pending,
    confirming,
    setConfirming,
    clientError,
    onEdit,
    commentHref,
    askToConfirm,
    confirmSave,
    discard,
  };
}
