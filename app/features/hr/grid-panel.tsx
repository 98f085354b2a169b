import { Form, Link } from "@remix-run/react";
import { messages } from "~/messages";
import type { HrAuxRow, StoreUser } from "~/models/hr.server";
import type { ThreadState } from "~/platform/comments/thread-link";
import { ExcelPanel, type ExcelPanelData } from "~/shared/excel/panel";
import { type Month, monthLabel } from "~/shared/months";
import { Alert } from "~/shared/ui/alert";
import { AuxGrid, type GridEdits } from "./aux-grid";
import { FiguresForm } from "./figures-form";
import { MonthRangeFields } from "./month-range-fields";
import { hrGridPath, hrPickerPath, hrThreadPath } from "./paths";
import { StoreUsers } from "./store-users";
import { hrTexts } from "./texts";
import type { useGridEdits } from "./use-grid-edits";

const NO_ERRORS: Record<string, string> = {};
const NO_EDITS: GridEdits = {};

/** The grid page once there is a month range: the count, Excel, the rows (editable or not) and the branch's people. */
export function GridPanel({
  page,
  grid,
  gridUrl,
  saving,
  serverErrors,
}: {
  page: {
    filial: string;
    canEdit: boolean;
    range: { from: Month; to: Month };
    rows: HrAuxRow[];
    limited: boolean;
    people: StoreUser[];
    excel: ExcelPanelData | null;
    saveId: string;
    threads: Record<string, ThreadState>;
  };
  grid: ReturnType<typeof useGridEdits>;
  gridUrl: string;
  saving: boolean;
  serverErrors: Record<string, string> | undefined;
}) {
  const caption = hrTexts.gridCaption(page.filial);
  const threads = { marks: page.threads, href: (id: string) => hrThreadPath(page.filial, id) };
  return (
    <div className="hr-layout">
      <div className="hr-layout__main">
        <p className="hr-count">
          {hrTexts.rowCount(page.rows.length)} · {monthLabel(page.range.from)}
          {page.range.to !== page.range.from ? ` – ${monthLabel(page.range.to)}` : ""}
          {" · "}
          <Link to={hrThreadPath(page.filial)}>{hrTexts.threadsOfBranch}</Link>
        </p>
        {page.limited ? <Alert tone="warning">{hrTexts.rowLimitReached(page.rows.length)}</Alert> : null}
        {page.excel && page.rows.length > 0 ? <ExcelPanel excel={page.excel} busy={saving} /> : null}
        {page.rows.length === 0 ? (
          <p className="hr-empty">{messages.noDataFound}</p>
        ) : page.canEdit ? (
          <FiguresForm
            gridUrl={gridUrl}
            saveId={page.saveId}
            rows={page.rows}
            caption={caption}
            edits={grid.edits}
            serverErrors={serverErrors ?? NO_ERRORS}
            commentHref={grid.commentHref}
            onEdit={grid.onEdit}
            threads={threads}
            changedCount={grid.pending.changes.length}
            saving={saving}
            onSave={grid.askToConfirm}
            onDiscard={grid.discard}
          />
        ) : (
          <AuxGrid
            rows={page.rows}
            caption={caption}
            canEdit={false}
            edits={NO_EDITS}
            serverErrors={NO_ERRORS}
            commentHref={grid.commentHref}
            onEdit={grid.onEdit}
            threads={threads}
          />
        )}
      </div>
      <StoreUsers people={page.people} filial={page.filial} />
    </div>
  );
}

/** A branch that is unknown or outside the user's scope. */
export function BranchNotFound({ filial }: { filial: string }) {
  return (
    <>
      <Alert tone="error">{hrTexts.branchNotFound(filial)}</Alert>
      <p>
        <Link className="button button--secondary" to={hrPickerPath()}>
          {hrTexts.backToPicker}
        </Link>
      </p>
    </>
  );
}

/** The month range of the grid (a GET form: the range lives in the URL). */
export function MonthToolbar({
  filial,
  months,
  error,
}: {
  filial: string;
  months: { from: string; to: string };
  error: string | null;
}) {
  return (
    <Form method="get" action={hrGridPath(filial)} className="hr-toolbar">
      <MonthRangeFields from={months.from} to={months.to} error={error}>
        <button type="submit" className="button button--secondary">
          {hrTexts.applyMonths}
        </button>
      </MonthRangeFields>
    </Form>
  );
}
