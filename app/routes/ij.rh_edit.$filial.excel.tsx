// Screen: HR auxiliary data Excel round trip: GET /ij/rh_edit/{filial}/excel (the grid as XLSX), POST an edited export back.

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { hrXlsx, importHrFile } from "~/features/hr/excel.server";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM, resolveMonthRange } from "~/features/hr/month-range";
import { FILIAL_MAX, HR_DATASET, hrGridPath } from "~/features/hr/paths";
import { hrRoundTrip } from "~/features/hr/round-trip.server";
import { hrTexts, messages } from "~/messages";
import { keepExcelReport } from "~/models/excel-imports.server";
import { branchScopeOf, branchVisible } from "~/models/hr.server";
import { recordExport, recordRoundTrip } from "~/platform/audit/data-events.server";
import { requireRouteAccess } from "~/platform/auth/auth.server";
import { queuedImportRedirect } from "~/platform/import/returned-file-jobs.server";
import { returnedFileOf } from "~/shared/excel/round-trip.server";
import { monthKey } from "~/shared/months";
import { redirectWithToast } from "~/shared/toast.server";

async function scopeOf(request: Request, filial: string, email: string) {
  const url = new URL(request.url);
  const months = resolveMonthRange(
    { from: url.searchParams.get(MONTH_FROM_PARAM), to: url.searchParams.get(MONTH_TO_PARAM) },
    { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth },
  );
  const visible = filial.length <= FILIAL_MAX && (await branchVisible(filial, await branchScopeOf(email)));
  return { months, visible };
}

/** "Exportar Excel": the branch's rows of the month range in the URL, as the grid shows them. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit.$filial.excel", request);
  const filial = params.filial ?? "";
  const { months, visible } = await scopeOf(request, filial, user.email);
  if (!visible) throw new Response(hrTexts.branchNotFound(filial.slice(0, FILIAL_MAX)), { status: 404 });
  if (!months.ok) throw new Response(months.error, { status: 400 });
  const range = months.range;
  return hrXlsx(filial, range, (rows) =>
    recordExport({
      actor: user,
      dataset: HR_DATASET,
      object: { kind: "dataset", id: HR_DATASET, label: hrGridPath(filial, range) },
      filter: { filial, [MONTH_FROM_PARAM]: monthKey(range.from), [MONTH_TO_PARAM]: monthKey(range.to) },
      rows,
    }),
  );
}

/** An edited export sent back by an HR editor: the changed figures and comments, saved via Excel, then the grid. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireRouteAccess("routes/ij.rh_edit.$filial.excel", request, "write");
  const filial = params.filial ?? "";
  const { months, visible } = await scopeOf(request, filial, user.email);
  if (!visible) throw new Response(hrTexts.branchNotFound(filial.slice(0, FILIAL_MAX)), { status: 404 });
  const range = months.ok ? months.range : months.fallback;
  const back = hrGridPath(filial, range);
  const file = await returnedFileOf(request);
  if (!file.ok) return redirectWithToast(back, { type: "error", description: file.message });
  if (!months.ok) return redirectWithToast(back, { type: "error", description: months.error });
  // Stored as an HR file whatever its header (the dataset's rows are HR data).
  const queued = await queuedImportRedirect(file, user.email, back, hrRoundTrip.dataClass);
  if (queued) return queued;
  const outcome = await importHrFile(file.stream, filial, months.range, user.email);
  if (!outcome.ok) return redirectWithToast(back, { type: "error", description: outcome.message });
  const id = await keepExcelReport(HR_DATASET, user.email, outcome.report);
  await recordRoundTrip({
    actor: user,
    dataset: HR_DATASET,
    report: outcome.report,
    reportLink: `${back}${back.includes("?") ? "&" : "?"}excel=${id}`,
    via: "screen",
  });
  return redirectWithToast(`${back}${back.includes("?") ? "&" : "?"}excel=${id}`, {
    type: "success",
    description: messages.saved,
  });
}
