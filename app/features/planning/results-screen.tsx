import { Form } from "@remix-run/react";
import { ExcelPanel } from "~/shared/excel/panel";
import { DataTable } from "~/shared/ui/data-table";
import { uiTexts } from "~/shared/ui/texts";
import { useHydrated } from "~/shared/ui/use-hydrated";
import { PlanningHeader } from "./planning-header";
import type { ResultsActionData, ResultsView } from "./results.server";
import { resultColumns } from "./results-columns";
import { DiscardDialog, PageDialogs, SaveConfirmDialog } from "./results-dialogs";
import { ResultsContext, ResultsStatus, ResultsToolbar, SaveError, SaveFields } from "./results-parts";
import type { PlanningScreen } from "./screens";
import { planningTexts } from "./texts";
import { useEdits } from "./use-edits";
import { useConfirming, useKeptFilter, useLeaveGuard, useResultsNavigation } from "./use-results-page";
import "./planning.css";

export type ResultsData = ResultsView;

const FORM_ID = "planning-edit";

/**
 * The results screen of both flows (spec 001 §2 "/ij/plan_edit", "/ij/report_preview"): header with the period,
 * spinner then "Report generated successfully." with the count or "No data found", the server-paged table (20
 * rows, newest first), individual edits, the group edit (batch), reset, save with a confirmation, the saved
 * message with Close, and each row's history. Dialogs and the batch preview live in the URL, so every step also
 * works without JavaScript; with it, the confirmation opens in place and the checks run as you type.
 */
export function ResultsScreen({
  screen,
  data,
  actionData,
}: {
  screen: PlanningScreen;
  data: ResultsData;
  actionData: ResultsActionData | undefined;
}) {
  const hydrated = useHydrated();
  const nav = useResultsNavigation(screen, data);
  const error = actionData?.kind === "error" ? actionData : null;
  const edits = useEdits(data, error?.values, nav.withoutDialogs);
  const [confirming, setConfirming] = useConfirming(data, actionData);
  useKeptFilter(screen, data);
  const dirty = edits.changed.length > 0;
  const blocker = useLeaveGuard(dirty);
  const canSave = data.batch !== null || (dirty && edits.invalid.size === 0);
  const confirmText = data.batch
    ? planningTexts.confirmBatch(data.batch.label, data.total)
    : planningTexts.confirmIndividual(edits.changed.length);

  return (
    <section className="planning planning--results" aria-busy={nav.loading || nav.saving}>
      <PlanningHeader screen={screen} step={2} filterHref={nav.filterHref} />
      <ResultsContext data={data} filterHref={nav.filterHref} />
      <ResultsStatus data={data} loading={nav.loading} />
      {data.excel ? <ExcelPanel excel={data.excel} busy={nav.saving} /> : null}
      {!data.canWrite ? <p className="planning__note">{planningTexts.readOnlyNote}</p> : null}
      <SaveError error={error} />

      {data.total > 0 ? (
        <Form method="post" id={FORM_ID} className="planning__form" preventScrollReset>
          <SaveFields data={data} />
          {data.canWrite ? (
            <ResultsToolbar
              data={data}
              hydrated={hydrated}
              changedCount={edits.changed.length}
              canSave={canSave}
              saving={nav.saving}
              groupEditHref={nav.groupEditHref}
              resetHref={nav.clean}
              onReset={() => edits.clear()}
              onSave={() => setConfirming(true)}
            />
          ) : null}
          <DataTable
            columns={resultColumns(data, edits, error?.rowErrors ?? {}, nav.historyHref)}
            rows={data.rows}
            getRowId={(row) => row.id}
            rowCount={data.total}
            page={data.page}
            pageSize={data.pageSize}
            pageParamBase={screen.pageBase}
            emptyText={uiTexts.noDataFound}
            caption={planningTexts.tableCaption}
          />
        </Form>
      ) : null}

      {hydrated ? (
        <SaveConfirmDialog
          open={confirming}
          onOpenChange={setConfirming}
          text={confirmText}
          formId={FORM_ID}
          saving={nav.saving}
        />
      ) : null}
      <DiscardDialog blocker={blocker} />
      <PageDialogs data={data} actionData={actionData} nav={nav} />
    </section>
  );
}
