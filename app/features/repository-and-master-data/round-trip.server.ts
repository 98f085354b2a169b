import { z } from "zod";
import type { RouteId } from "~/access";
import { excelTexts } from "~/messages";
import {
  CHANNEL,
  MASTER_DATA_COLLECTION_NAMES,
  type MasterDataCollectionName,
  PLANNING_SPEND,
  PRODUCT_MASTER,
} from "~/models/master-data.server";
import { CHANNEL_TABS, type MasterDataTab, PLANNING_TABS } from "~/models/master-data-queries.server";
import { type RoundTripDataset, RoundTripScopeError, scopeRecord } from "~/shared/excel/dataset";
import { acceptsEditedExport, importMasterDataFile, masterDataDataset, masterDataXlsx } from "./excel.server";
import { productScreenTarget, type ScreenTarget, tabbedScreenTarget } from "./excel-routes.server";
import { masterDataTexts } from "./texts";

/** The export's scope, as `portal export <collection>` takes it: the file filter of the screen. */
const masterDataScope = z.object({ file: z.string().trim().min(1).max(1024).optional() });

/**
 * The screens a returned export of a valid base goes back through: the route whose write rule applies, and the base
 * the file's scope designates there (the screen's own rules: a fixed tab, or the catalogue entry).
 */
const SCREENS: Partial<
  Record<MasterDataCollectionName, { routeId: RouteId; target: (scope: URLSearchParams) => Promise<ScreenTarget> }>
> = {
  [PRODUCT_MASTER]: {
    routeId: "routes/repo.master-data.excel",
    target: (scope) => productScreenTarget(new URL(`http://portal/repo/master-data?${scope.toString()}`)),
  },
  [CHANNEL]: {
    routeId: "routes/repo.master-data.canal.excel",
    target: async (scope) =>
      tabbedScreenTarget("/repo/master-data/canal", CHANNEL_TABS, new URL(`http://portal/?${scope.toString()}`)),
  },
  [PLANNING_SPEND]: {
    routeId: "routes/repo.master-data.planejamento.excel",
    target: async (scope) =>
      tabbedScreenTarget(
        "/repo/master-data/planejamento",
        PLANNING_TABS,
        new URL(`http://portal/?${scope.toString()}`),
      ),
  },
};

function masterDataRoundTrip(collection: MasterDataCollectionName): RoundTripDataset<RouteId> {
  const screen = SCREENS[collection];
  return {
    id: masterDataDataset(collection),
    exportName: collection,
    scopeFields: ["file"],
    async exportXlsx(scope) {
      const parsed = masterDataScope.safeParse(scopeRecord(scope));
      if (!parsed.success) throw new RoundTripScopeError(parsed.error);
      const tab = [...CHANNEL_TABS, ...PLANNING_TABS].find((t) => t.collection === collection) as MasterDataTab;
      return masterDataXlsx({ collection: tab.collection, columns: tab.columns, label: tab.label }, parsed.data.file);
    },
    returned: screen && {
      writeRoute: screen.routeId,
      async apply(open, scope, user) {
        let on: ScreenTarget;
        try {
          on = await screen.target(scope);
        } catch {
          return { ok: false, message: excelTexts.excelOtherScope };
        }
        if (!acceptsEditedExport(on.target.collection))
          return { ok: false, message: masterDataTexts.masterDataExcelReadOnly };
        const outcome = await importMasterDataFile(await open(), on.target, user.email);
        if (!outcome.ok) return outcome;
        const query = new URLSearchParams(on.query);
        return {
          ok: true,
          dataset: masterDataDataset(on.target.collection),
          report: outcome.report,
          screen: `${on.screen}?${query.toString()}`,
        };
      },
    },
  };
}

/**
 * Every master-data base as a round trip, one dataset per collection (a file goes back only to the base it came
 * from); the NOK bases are exported for reading only (app/round-trips.server.ts lists them).
 */
export const masterDataRoundTrips: readonly RoundTripDataset<RouteId>[] =
  MASTER_DATA_COLLECTION_NAMES.map(masterDataRoundTrip);
