import { z } from "zod";
import type { RouteId } from "~/access";
import { messages } from "~/messages";
import { keepExcelReport } from "~/models/excel-imports.server";
import {
  columnsOf,
  FILE_PARAM,
  fileParam,
  findCatalogueEntry,
  listMasterDataCollections,
  type MasterDataCollection,
  type MasterDataTab,
  pickTab,
} from "~/models/master-data-queries.server";
import { recordExport, recordRoundTrip } from "~/platform/audit/data-events.server";
import { type AuthenticatedUser, canWriteRoute } from "~/platform/auth/auth.server";
import { excelPanelState, queuedImportRedirect } from "~/platform/import/returned-file-jobs.server";
import type { ExcelPanelData } from "~/shared/excel/panel";
import { EXCEL_REPORT_PARAM, returnedFileOf } from "~/shared/excel/round-trip.server";
import { ID_PARAM_MAX } from "~/shared/limits";
import { redirectWithToast } from "~/shared/toast.server";
import {
  acceptsEditedExport,
  importMasterDataFile,
  type MasterDataTarget,
  masterDataDataset,
  masterDataExportCount,
  masterDataXlsx,
} from "./excel.server";
import { masterDataTexts } from "./texts";

/**
 * The routes' side of the master-data Excel round trip: which base a screen's URL designates (the same rules as the
 * screen's loader: a fixed tab, or the catalogue entry; never a collection named only by the URL), the panel of the
 * screen, and the import action's answer (a redirect back to the screen with the outcome, `?excel=<id>`).
 */

/** The screen a target is shown on, with the query that reproduces its filter. */
export type ScreenTarget = {
  target: MasterDataTarget;
  screen: string;
  query: URLSearchParams;
  file: string | undefined;
};

const productSchema = z.object({
  base: z.enum(["ok", "nok"]).catch("ok"),
  collection: z
    .string()
    .max(ID_PARAM_MAX)
    .optional()
    .catch(undefined)
    .transform((name) => name || undefined),
  file: fileParam,
});

/**
 * /repo/master-data's base: `collection` checked against the catalogue (unknown: 404), else the first collection of
 * the Ok or NOK base (none: 404), with the catalogue's columns.
 */
export async function productScreenTarget(url: URL): Promise<ScreenTarget> {
  const { base, collection, file } = productSchema.parse({
    base: url.searchParams.get("base") ?? undefined,
    collection: url.searchParams.get("collection") ?? undefined,
    file: url.searchParams.get(FILE_PARAM) ?? undefined,
  });
  const catalogue = await listMasterDataCollections();
  const entry = collection
    ? findCatalogueEntry(catalogue, collection)
    : catalogue.find((c) => (c.collection_ok === 1) === (base === "ok"));
  if (!entry) throw new Response(null, { status: 404 });
  return productTargetOf(entry, file);
}

/** /repo/master-data's target for a catalogue entry the screen already chose. */
export function productTargetOf(entry: MasterDataCollection, file: string | undefined): ScreenTarget {
  const query = new URLSearchParams({
    base: entry.collection_ok === 1 ? "ok" : "nok",
    collection: entry.collection_name,
  });
  if (file) query.set(FILE_PARAM, file);
  return {
    target: { collection: entry.collection_name, columns: columnsOf(entry.fields), label: entry.label_name },
    screen: "/repo/master-data",
    query,
    file,
  };
}

const tabSchema = z.object({ tab: z.string().max(ID_PARAM_MAX).optional().catch(undefined), file: fileParam });

/** /repo/master-data/canal and /planejamento: the tab of the fixed table (an unknown one is the first). */
export function tabbedScreenTarget(screen: string, tabs: readonly MasterDataTab[], url: URL): ScreenTarget {
  const { tab: id, file } = tabSchema.parse({
    tab: url.searchParams.get("tab") ?? undefined,
    file: url.searchParams.get(FILE_PARAM) ?? undefined,
  });
  const tab = pickTab(tabs, id);
  const query = new URLSearchParams({ tab: tab.id });
  if (file) query.set(FILE_PARAM, file);
  return { target: { collection: tab.collection, columns: tab.columns, label: tab.label }, screen, query, file };
}

/**
 * The screen's "Exportar Excel" and, on the valid bases for those who may write, the form that sends an edited export
 * back. `routeId` is the screen's own (its Excel route has the same rule: app/access.ts).
 */
export async function masterDataExcelPanel(
  on: ScreenTarget,
  routeId: RouteId,
  user: AuthenticatedUser,
  url: URL,
): Promise<ExcelPanelData> {
  const href = `${on.screen}/excel?${on.query.toString()}`;
  const excelState = await excelPanelState(url.searchParams, user.email, masterDataDataset(on.target.collection));
  return {
    exportHref: href,
    importAction: href,
    canImport: acceptsEditedExport(on.target.collection) && canWriteRoute(user, routeId),
    ...excelState,
  };
}

function backTo(on: ScreenTarget, file: string | undefined, reportId?: string): string {
  const query = new URLSearchParams(on.query);
  if (file) query.set(FILE_PARAM, file);
  else query.delete(FILE_PARAM);
  if (reportId) query.set(EXCEL_REPORT_PARAM, reportId);
  return `${on.screen}?${query.toString()}`;
}

/** "Exportar Excel" of a master-data screen: its audit entry (the filter, the row count) first, then the XLSX. */
export async function exportMasterDataScreen(on: ScreenTarget, user: AuthenticatedUser): Promise<Response> {
  const dataset = masterDataDataset(on.target.collection);
  await recordExport({
    actor: user,
    dataset,
    object: { kind: "dataset", id: dataset, label: on.screen },
    filter: { collection: on.target.collection, ...(on.file ? { file: on.file } : {}) },
    rows: await masterDataExportCount(on.target, on.file),
  });
  return masterDataXlsx(on.target, on.file);
}

/** An edited export sent back through the screen: applied, then the screen (on the file's filter) with the outcome. */
export async function importEditedExport(
  request: Request,
  on: ScreenTarget,
  user: AuthenticatedUser,
): Promise<Response> {
  if (!acceptsEditedExport(on.target.collection)) {
    return redirectWithToast(backTo(on, on.file), {
      type: "error",
      description: masterDataTexts.masterDataExcelReadOnly,
    });
  }
  const file = await returnedFileOf(request);
  if (!file.ok) return redirectWithToast(backTo(on, on.file), { type: "error", description: file.message });
  const queued = await queuedImportRedirect(file, user.email, backTo(on, on.file));
  if (queued) return queued;
  const outcome = await importMasterDataFile(file.stream, on.target, user.email);
  if (!outcome.ok) return redirectWithToast(backTo(on, on.file), { type: "error", description: outcome.message });
  const id = await keepExcelReport(masterDataDataset(on.target.collection), user.email, outcome.report);
  await recordRoundTrip({
    actor: user,
    dataset: masterDataDataset(on.target.collection),
    report: outcome.report,
    reportLink: backTo(on, outcome.file, id),
    via: "screen",
  });
  return redirectWithToast(backTo(on, outcome.file, id), { type: "success", description: messages.saved });
}
