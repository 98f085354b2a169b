// Screen: Forecast review grid: /ij/report_preview_edit_schneider/{rf}/{cost_center_concat}.
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import {
  Link,
  type ShouldRevalidateFunction,
  useActionData,
  useBeforeUnload,
  useBlocker,
  useFetcher,
  useLoaderData,
} from "@remix-run/react";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { Breadcrumb } from "~/features/forecast/breadcrumb";
import { loadReviewPage, readCycleForm } from "~/features/forecast/review-page.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { GeneralErrorBoundary } from "~/shared/ui/error-boundary";
import "~/shared/ui/data-table.css";
import "~/features/forecast/forecast.css";
import "~/features/forecast/cycle/cycle.css";
import { takeCycleAction } from "~/features/forecast/cycle/cycle.server";
import { CyclePanel } from "~/features/forecast/cycle/cycle-panel";
import { cycleTexts } from "~/features/forecast/cycle/texts";
import { commentPath, historyPath, reviewPath, spreadPath } from "~/features/forecast/forecast-filter";
import { type ConflictMark, ForecastGrid, INITIAL_PINNING } from "~/features/forecast/forecast-grid";
import type { CellChange } from "~/features/forecast/forecast-grid-rules";
import { gridTexts } from "~/features/forecast/grid-texts";
import { resolveReview, reviewRefusal, type SaveReply, saveReview } from "~/features/forecast/review.server";
import { useTouchScreen } from "~/features/forecast/use-touch-screen";
import { SaveViewForm } from "~/features/saved-views/save-view-form";
import { messages } from "~/messages";
import { portalToday } from "~/shared/clock.server";
import { ExcelPanel } from "~/shared/excel/panel";
import { Alert } from "~/shared/ui/alert";

// Leaving with unsaved changes and the save under way: dialogs only a running page opens, fetched once it runs (a
// save's "Salvando Dados..." must not wait for its code).
const loadReviewDialogs = () => import("~/features/forecast/review-dialogs");
const ReviewDialogs = lazy(loadReviewDialogs);

export const meta: MetaFunction<typeof loader> = ({ data: page }) => [
  {
    title: page?.found ? gridTexts.gridCaption(page.rf, page.costCenter.cost_center_concat) : gridTexts.filterTitle,
  },
];

/**
 * /ij/report_preview_edit_schneider/{period}/{cost_center} (params `rf`, `cost_center_concat`, e.g. "RF1 2026" and
 * "CC1001 - Marketing"): the monthly forecast grid of one scenario and cost centre (spec 001 §2–§5). The grid is open
 * only in the scenario's edit month (app/features/forecast/release-points.ts); the save sends only the changed cells, in one
 * request, and the server checks them again whatever the browser sent. Without JavaScript the grid is read-only.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat", request);
  return loadReviewPage(request, params, user);
}

/**
 * Two kinds of POST: the grid's save (JSON, the editors' write rule) and a cycle action (a form: submit, approve,
 * return, reopen; who may take each is the cycle's rule). A cycle action that succeeds redirects to the page, so Back
 * or a reload never sends it again.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const json = (request.headers.get("Content-Type") ?? "").includes("application/json");
  const user = await requireRouteAccess(
    "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat",
    request,
    json ? "write" : "read",
  );
  const lookup = await resolveReview(params, user, json ? "write" : "read");
  // A cost centre the user may not read: the grid's save shows the refusal in place; a form's POST is the 403 page.
  if (!lookup.ok && lookup.status === 403 && !json) throw reviewRefusal(lookup);
  if (!lookup.ok) return data<SaveReply>({ ok: false, message: lookup.message }, { status: lookup.status });
  if (json) return saveReview(request, lookup.review, user, portalToday());
  const form = await readCycleForm(request);
  if (!form) return data({ cycleError: messages.badRequest }, { status: 400 });
  const outcome = await takeCycleAction(form, lookup.review, user, portalToday());
  if (!outcome.ok)
    return "confirm" in outcome
      ? data({ cycleConfirm: outcome.confirm }, { status: 200 })
      : data({ cycleError: outcome.message }, { status: outcome.status });
  const { calendar, costCenter } = lookup.review;
  return redirect(`${reviewPath(calendar.name, costCenter.cost_center_concat)}?ciclo=${form.get("intent")}`);
}

/**
 * Only a successful save reloads the grid; a refused one keeps the user's edits on screen, as does a comment posted from
 * the side panel (the grid marks its cell itself).
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate, formAction }) => {
  if (formAction?.split("?")[0].endsWith("/comentarios")) return false;
  if (actionResult && typeof actionResult === "object" && "ok" in actionResult) return actionResult.ok === true;
  return defaultShouldRevalidate;
};

const NO_CONFLICTS: ConflictMark[] = [];

export default function ForecastReviewPage() {
  useEffect(() => void loadReviewDialogs(), []);
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const cycleError = actionData && "cycleError" in actionData ? actionData.cycleError : null;
  const cycleConfirm = actionData && "cycleConfirm" in actionData ? actionData.cycleConfirm : null;
  const save = useFetcher<typeof action>({ key: "forecast-save" });
  // A refused save is shown until its conflicts are resolved; a new save replaces it.
  const [dismissed, setDismissed] = useState<SaveReply | undefined>(undefined);
  const [pinning, setPinning] = useState(INITIAL_PINNING);
  const [pending, setPending] = useState(0);
  const touch = useTouchScreen();
  // Leaving with unsaved changes asks first: another page of the portal (a dialog) or closing the tab (the browser's).
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => pending > 0 && currentLocation.pathname !== nextLocation.pathname,
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (pending > 0) event.preventDefault();
      },
      [pending],
    ),
  );
  const saving = save.state !== "idle";
  const reply = saving ? undefined : (save.data as SaveReply | undefined);
  const shown = reply && reply !== dismissed ? reply : undefined;
  const error = shown && !shown.ok ? shown.message : null;
  const conflicts = (shown && !shown.ok && shown.conflicts) || NO_CONFLICTS;

  if (!page.found) {
    return (
      <section className="forecast-review">
        <Breadcrumb filterHref={page.filterHref} current={gridTexts.breadcrumbReview} />
        <Alert tone="error">{page.message}</Alert>
        <p>
          <Link to={page.filterHref}>{gridTexts.filtering}</Link>
        </p>
      </section>
    );
  }

  const onSave = (changes: CellChange[]) =>
    save.submit({ intent: "save", changes }, { method: "post", encType: "application/json" });
  const dismiss = () => setDismissed(reply);
  const empty = page.grid.groups.length === 0;
  // "Distribuir total" for the review's editors while it is open, and the cells' comments (with the Excel tools:
  // folded on a touch screen).
  const spreadLink = (
    <p className="forecast-review__spread">
      {page.grid.editable ? (
        <>
          <Link to={spreadPath(page.rf, page.costCenter.cost_center_concat)}>{gridTexts.spreadLaunch}</Link>
          {" · "}
        </>
      ) : null}
      <Link to={commentPath(page.rf, page.costCenter.cost_center_concat)}>{gridTexts.commentsOfReview}</Link>
    </p>
  );

  return (
    <section className="forecast-review">
      <Breadcrumb filterHref={page.filterHref} current={gridTexts.breadcrumbReview} />
      <header className="forecast-review__header">
        <h1>
          {page.rf} · {page.costCenter.cost_center_concat}
        </h1>
        <p className="forecast-review__facts">
          {page.costCenter.level_descr ? `${page.costCenter.level_descr} · ` : ""}
          {page.factsLine}
        </p>
      </header>
      {page.cycleDone && !cycleError ? <Alert tone="success">{page.cycleDone}</Alert> : null}
      <CyclePanel cycle={page.cycle} error={cycleError} confirm={cycleConfirm} compact={touch} />
      {page.cycle.frozen ? (
        <Alert tone="info">
          {cycleTexts.frozen(page.costCenter.cost_center_concat, page.rf, page.cycle.shown.label)}
        </Alert>
      ) : (
        <Alert tone={page.stateNotice.tone}>{page.stateNotice.text}</Alert>
      )}
      {page.grid.editable ? (
        <noscript>
          <Alert tone="info">{gridTexts.noScriptNotice}</Alert>
        </noscript>
      ) : null}
      {error ? (
        <Alert tone="error" title={gridTexts.saveFailedTitle}>
          {error}
        </Alert>
      ) : null}
      {empty ? null : touch ? (
        // On a touch screen the Excel tools and the keyboard help fold away, so the grid starts near the top.
        <details className="forecast-review__more">
          <summary>{gridTexts.moreOptions}</summary>
          <ExcelPanel excel={page.excel} />
          {spreadLink}
          {page.grid.editable ? <p className="forecast-grid__help">{gridTexts.keyboardHelp}</p> : null}
        </details>
      ) : (
        <>
          <ExcelPanel excel={page.excel} />
          {spreadLink}
        </>
      )}
      {empty ? (
        <Alert tone="info">{page.noData}</Alert>
      ) : (
        <ForecastGrid
          // Another review is another grid; a reload of the same one keeps it (loadedAt resets its values in place).
          key={`${page.rf}\n${page.costCenter.cost_center_concat}`}
          payload={page.grid}
          loadedAt={page.loadedAt}
          showKeyboardHelp={!touch}
          saveDialogOpen={saving}
          caption={gridTexts.gridCaption(page.rf, page.costCenter.cost_center_concat)}
          conflicts={conflicts}
          onConflictsResolved={dismiss}
          onSave={onSave}
          saving={saving}
          historyUrl={(account, month) => historyPath(page.rf, page.costCenter.cost_center_concat, account, month)}
          commentsUrl={(account, month) => commentPath(page.rf, page.costCenter.cost_center_concat, account, month)}
          spreadUrl={page.grid.editable ? spreadPath(page.rf, page.costCenter.cost_center_concat) : undefined}
          columnPinning={pinning}
          onColumnPinningChange={setPinning}
          onPendingChange={setPending}
        />
      )}
      <SaveViewForm />
      {page.openedHistory ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: the loader's HTML of the opened cell's history (cell-history-noscript.server.tsx)
        <noscript dangerouslySetInnerHTML={{ __html: page.openedHistory }} />
      ) : null}
      {blocker.state === "blocked" || saving ? (
        <Suspense fallback={null}>
          <ReviewDialogs
            leaving={blocker.state === "blocked"}
            pending={pending}
            onStay={() => blocker.reset?.()}
            onLeave={() => blocker.proceed?.()}
            saving={saving}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
