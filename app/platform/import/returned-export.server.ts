import type { Readable } from "node:stream";
import { canAccessRoute, OPERATOR_TYPE, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { keepExcelReport } from "~/models/excel-imports.server";
import { findPermissionRecord } from "~/models/user-permissions.server";
import { recordRoundTrip } from "~/platform/audit/data-events.server";
import {
  EXCEL_REPORT_PARAM,
  portalHeaderOf,
  type RoundTripReport,
  reportSummary,
} from "~/shared/excel/round-trip.server";
import { excelTexts } from "~/shared/excel/texts";
import { type CellValue, cellText } from "~/shared/excel/values";
import { roundTripById } from "./registry";

/**
 * An edited "Exportar Excel" file sent through /captura/manual instead of its screen: recognised by its
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
/** `resultPath`: the screen that shows the kept report (`?excel=<id>`). */
export type ReturnedExportOutcome =
  | { ok: true; message: string; resultPath: string }
  | { ok: false; message: string; forbidden?: true };

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
  const resultPath = withReport(screen, id);
  // The round trip in the audit trail (the uploader, as the rights were read).
  await recordRoundTrip({ actor: user, dataset, report, reportLink: resultPath, via: "upload", ip: null });
  return { ok: true, message: excelTexts.excelViaUpload(reportSummary(report), resultPath), resultPath };
}

/**
 * Applies the returned export `open()` reads, as its uploader, through the screen named by `dataset`. The operator's
 * CLI import without --user has SYSTEM ADMIN's rights (upload-rights.server.ts).
 */
export async function applyReturnedExport(
  found: { dataset: string; scope: URLSearchParams },
  uploader: { email: string; operator: boolean },
  open: () => Promise<Readable>,
  /** Throws when the report must not be kept (the worker lost its claim while applying: ingest.server.ts). */
  beforeKeep?: () => Promise<void>,
): Promise<ReturnedExportOutcome> {
  const record = uploader.operator ? null : await findPermissionRecord(uploader.email);
  const type = uploader.operator ? OPERATOR_TYPE : (record?.type ?? "");
  const user: Uploader = { email: uploader.email, name: record?.name ?? uploader.email, type };
  const refused = { ok: false as const, message: excelTexts.excelUploadNotAllowed, forbidden: true as const };
  const { dataset, scope } = found;

  // The screen the file came from, as app/round-trips.server.ts lists it; a read-only export is not taken back.
  const returned = (await roundTripById(dataset))?.returned;
  if (!returned) return { ok: false, message: excelTexts.excelNotAnExport };
  if (!mayWrite(user, returned.writeRoute)) return refused;
  if (returned.mayImport && !(await returned.mayImport(user, scope))) return refused;
  const outcome = await returned.apply(open, scope, user);
  if (!outcome.ok) return outcome;
  await beforeKeep?.();
  return kept(outcome.dataset, user, outcome.report, outcome.screen);
}
