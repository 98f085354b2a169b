import { Form } from "@remix-run/react";
import type { HrAuxRow } from "~/models/hr.server";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { AuxGrid, type GridEdits, type RowThreads } from "./aux-grid";
import type { HrFigureField } from "./figures";
import { hrTexts } from "./texts";

/**
 * The editors' grid: the rows with their figure inputs and the save bar. Without JavaScript the form posts every
 * cell (the server answers the confirmation); with it `onSave` checks and confirms in a dialog.
 */
export function FiguresForm({
  gridUrl,
  saveId,
  rows,
  caption,
  edits,
  serverErrors,
  commentHref,
  onEdit,
  threads,
  changedCount,
  saving,
  onSave,
  onDiscard,
}: {
  gridUrl: string;
  saveId: string;
  rows: HrAuxRow[];
  caption: string;
  edits: GridEdits;
  serverErrors: Record<string, string>;
  commentHref: (id: string) => string;
  onEdit: (id: string, field: HrFigureField, text: string) => void;
  threads: RowThreads;
  changedCount: number;
  saving: boolean;
  onSave: () => void;
  onDiscard: () => void;
}) {
  const hydrated = useHydrated();
  return (
    <Form
      method="post"
      action={gridUrl}
      className="hr-figures"
      preventScrollReset
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="saveId" value={saveId} />
      <AuxGrid
        rows={rows}
        caption={caption}
        canEdit
        edits={edits}
        serverErrors={serverErrors}
        commentHref={commentHref}
        onEdit={onEdit}
        threads={threads}
      />
      <div className="hr-savebar">
        <span className="hr-savebar__count" aria-live="polite">
          {hydrated ? (changedCount > 0 ? hrTexts.changedCount(changedCount) : hrTexts.noChanges) : null}
        </span>
        {hydrated ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={Object.keys(edits).length === 0 || saving}
            onClick={onDiscard}
          >
            {hrTexts.discard}
          </button>
        ) : null}
        <button type="submit" className="button button--primary" disabled={hydrated && (saving || changedCount === 0)}>
          {hrTexts.save}
        </button>
      </div>
    </Form>
  );
}
