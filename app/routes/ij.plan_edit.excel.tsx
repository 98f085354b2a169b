// Screen: Planning Excel round trip: GET /ij/plan_edit/excel (the filter's rows as XLSX), POST an edited export back.

import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { importPlanningFile, PLANNING_DATASET, planningXlsx } from "~/features/planning/excel.server";
import { filterSearchParams, parseFilter } from "~/features/planning/planning";
import { messages } from "~/messages";
import { keepExcelReport } from "~/models/excel-imports.server";
import { countPlanningRows } from "~/models/planning-queries.server";
import { recordExport, recordRoundTrip } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { queuedImportRedirect } from "~/platform/import/returned-file-jobs.server";
import { returnedFileOf } from "~/shared/excel/round-trip.server";
import { redirectWithToast } from "~/shared/toast.server";

const SCREEN = "/ij/plan_edit";

/** "Exportar Excel": every row of the filter in the URL (the screen's own), streamed as XLSX. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit.excel", request);
  const parsed = parseFilter(new URL(request.url).searchParams, "plan");
  if (!parsed.ok) throw redirect("/ij/plan?check=1");
  await recordExport({
    actor: user,
    dataset: PLANNING_DATASET,
    object: { kind: "dataset", id: PLANNING_DATASET, label: SCREEN },
    filter: filterSearchParams(parsed.filter),
    rows: await countPlanningRows(parsed.filter),
  });
  return planningXlsx(parsed.filter);
}

/**
 * An edited export sent back: the changed quantities are saved "via Excel"; the screen then shows
 * "N alterados, M conflitos, K recusados" with the list to download (`?excel=<id>`), on the file's filter.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.plan_edit.excel", request, "write");
  const url = new URL(request.url);
  const back = (query: string) => `${SCREEN}${query ? `?${query}` : ""}`;
  const current = parseFilter(url.searchParams, "plan");
  const currentQuery = current.ok ? filterSearchParams(current.filter, current.skuMode).toString() : "";
  const file = await returnedFileOf(request);
  if (!file.ok) return redirectWithToast(back(currentQuery), { type: "error", description: file.message });
  const queued = await queuedImportRedirect(file, user.email, back(currentQuery));
  if (queued) return queued;
  const outcome = await importPlanningFile(file.stream, user.email, "plan_edit");
  if (!outcome.ok) return redirectWithToast(back(currentQuery), { type: "error", description: outcome.message });
  const id = await keepExcelReport(PLANNING_DATASET, user.email, outcome.report);
  const query = filterSearchParams(outcome.filter, current.ok ? current.skuMode : undefined);
  query.set("excel", id);
  await recordRoundTrip({
    actor: user,
    dataset: PLANNING_DATASET,
    report: outcome.report,
    reportLink: back(query.toString()),
    via: "screen",
  });
  return redirectWithToast(back(query.toString()), { type: "success", description: messages.editingSaved });
}
