import type { Readable } from "node:stream";
import { canAccessRoute, OPERATOR_TYPE, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { FORECAST_DATASET, importForecastFile } from "~/features/forecast/excel.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { resolveReview } from "~/features/forecast/review.server";
import { HR_DATASET, importHrFile } from "~/features/hr/excel.server";
import { MONTH_FROM_PARAM, MONTH_TO_PARAM, resolveMonthRange } from "~/features/hr/month-range";
import { FILIAL_MAX, hrGridPath } from "~/features/hr/paths";
import { filterSearchParams } from "~/features/planning/planning";
import { importPlanningFile, PLANNING_DATASET } from "~/features/planning/excel.server";
import {
  acceptsEditedExport,
  importMasterDataFile,
  masterDataDataset,
} from "~/features/repository-and-master-data/excel.server";
import {
  EXCEL_REPORT_PARAM,
  productScreenTarget,
  tabbedScreenTarget,
  type ScreenTarget,
} from "~/features/repository-and-master-data/excel-routes.server";
import { getConfig } from "~/config.server";
import { excelTexts, masterDataTexts } from "~/messages";
import { branchScopeOf, branchVisible } from "~/models/hr.server";
import { CHANNEL, PLANNING_SPEND, PRODUCT_MASTER } from "~/models/master-data.server";
import { CHANNEL_TABS, PLANNING_TABS } from "~/models/master-data-queries.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { portalToday } from "~/shared/clock.server";
import { keepExcelReport } from "../excel-report.server";
import { portalHeaderOf, reportSummary, type RoundTripReport } from "../excel-round-trip.server";
import { cellText, type CellValue } from "./values";

/**
 * An edited "Exportar Excel" file sent through /captura/manual instead of its screen (issue 30): recognised by its
 * hidden `_portal:<dataset>?<scope>` column, applied by the same code as the screen's own import, with the same
 * rules, for the uploader, who must be allowed to save on that screen (and, for HR, see the branch). The outcome is
 * the job's message: "N alterados, M conflitos, K recusados" and where the list is (the screen with `?excel=<id>`).
 */

/** The dataset and scope a header row names, or null when it is not a portal export. */
export function returnedExportOf(headerRow: readonly CellValue[]): { dataset: string; scope: URLSearchParams } | null {
  for (const cell of headerRow) {
    const found = portalHeaderOf(cellText(cell).trim());
    if (found) return found;
  }
  return null;
}

/** `forbidden`: refused for the uploader's rights (the job's status 3), not for the file's content. */
export type ReturnedExportOutcome = { ok: true; message: string } | { ok: false; message: string; forbidden?: true };

type Uploader = { email: string; name: string; type: Parameters<typeof canAccessRoute>[0] };

const mayWrite = (user: Uploader, routeId: RouteId) => canAccessRoute(user.type, routeId, accessContext(), "write");

const withReport = (path: string, id: string) => `${path}${path.includes("?") ? "&" : "?"}${EXCEL_REPORT_PARAM}=${id}`;

async function kept(
  dataset: string,
  user: Uploader,
  report: RoundTripReport,
  screen: string,
): Promise<ReturnedExportOutcome> {
  const id = await keepExcelReport(dataset, user.email, report);
  return { ok: true, message: excelTexts.excelViaUpload(reportSummary(report), withReport(screen, id)) };
}

const MASTER_DATA_SCREENS: Record<
  string,
  { routeId: RouteId; target: (scope: URLSearchParams) => Promise<ScreenTarget> }
> = {
  [masterDataDataset(PRODUCT_MASTER)]: {
    routeId: "routes/repo.master-data.excel",
    target: (scope) => productScreenTarget(new URL(`http://portal/repo/master-data?${scope.toString()}`)),
  },
  [masterDataDataset(CHANNEL)]: {
    routeId: "routes/repo.master-data.canal.excel",
    target: async (scope) =>
      tabbedScreenTarget("/repo/master-data/canal", CHANNEL_TABS, new URL(`http://portal/?${scope.toString()}`)),
  },
  [masterDataDataset(PLANNING_SPEND)]: {
    routeId: "routes/repo.master-data.planejamento.excel",
    target: async (scope) =>
      tabbedScreenTarget(
        "/repo/master-data/planejamento",
        PLANNING_TABS,
        new URL(`http://portal/?${scope.toString()}`),
      ),
  },
};

/**
 * Applies the returned export `open()` reads, as its uploader, through the screen named by `dataset`. The operator's
 * CLI import without --user has SYSTEM ADMIN's rights (upload-rights.server.ts).
 */
export async function applyReturnedExport(
  found: { dataset: string; scope: URLSearchParams },
  uploader: { email: string; operator: boolean },
  open: () => Promise<Readable>,
): Promise<ReturnedExportOutcome> {
  const record = uploader.operator ? null : await findPermissionRecord(uploader.email);
  const type = uploader.operator ? OPERATOR_TYPE : (record?.type ?? "");
  const user: Uploader = { email: uploader.email, name: record?.name ?? uploader.email, type };
  const refused = { ok: false as const, message: excelTexts.excelUploadNotAllowed, forbidden: true as const };
  const { dataset, scope } = found;

  if (dataset === PLANNING_DATASET) {
    if (!mayWrite(user, "routes/ij.plan_edit.excel")) return refused;
    const outcome = await importPlanningFile(await open(), user.email, "plan_edit");
    if (!outcome.ok) return outcome;
    return kept(
      PLANNING_DATASET,
      user,
      outcome.report,
      `/ij/plan_edit?${filterSearchParams(outcome.filter).toString()}`,
    );
  }
  if (dataset === FORECAST_DATASET) {
    if (!mayWrite(user, "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel")) return refused;
    const lookup = await resolveReview({
      rf: scope.get("rf") ?? "",
      cost_center_concat: scope.get("cost_center_concat") ?? "",
    });
    if (!lookup.ok) return lookup;
    const outcome = await importForecastFile(await open(), lookup.review, portalToday(), user);
    if (!outcome.ok) return outcome;
    return kept(
      FORECAST_DATASET,
      user,
      outcome.report,
      reviewPath(lookup.review.calendar.name, lookup.review.costCenter.cost_center_concat),
    );
  }
  if (dataset === HR_DATASET) {
    if (!mayWrite(user, "routes/ij.rh_edit.$filial.excel")) return refused;
    const filial = scope.get("filial") ?? "";
    if (!filial || filial.length > FILIAL_MAX || !(await branchVisible(filial, await branchScopeOf(user.email))))
      return refused;
    const months = resolveMonthRange(
      { from: scope.get(MONTH_FROM_PARAM), to: scope.get(MONTH_TO_PARAM) },
      { now: new Date(), useCurrentMonth: getConfig().features.auxCurrentMonth },
    );
    if (!months.ok) return { ok: false, message: months.error };
    const outcome = await importHrFile(await open(), filial, months.range, user.email);
    if (!outcome.ok) return outcome;
    return kept(HR_DATASET, user, outcome.report, hrGridPath(filial, months.range));
  }
  const masterData = Object.prototype.hasOwnProperty.call(MASTER_DATA_SCREENS, dataset)
    ? MASTER_DATA_SCREENS[dataset]
    : undefined;
  if (masterData) {
    if (!mayWrite(user, masterData.routeId)) return refused;
    let on: ScreenTarget;
    try {
      on = await masterData.target(scope);
    } catch {
      return { ok: false, message: excelTexts.excelOtherScope };
    }
    if (!acceptsEditedExport(on.target.collection))
      return { ok: false, message: masterDataTexts.masterDataExcelReadOnly };
    const outcome = await importMasterDataFile(await open(), on.target, user.email);
    if (!outcome.ok) return outcome;
    const query = new URLSearchParams(on.query);
    return kept(masterDataDataset(on.target.collection), user, outcome.report, `${on.screen}?${query.toString()}`);
  }
  return { ok: false, message: excelTexts.excelNotAnExport };
}
