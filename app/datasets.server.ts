import { forecastTemplate } from "~/features/forecast/upload-template";
import { HR_DATASET } from "~/features/hr/paths";
import { hrTemplate } from "~/features/hr/upload-template";
import { planningQuantityTemplate } from "~/features/planning/upload-template";
import { fiscalTemplate, fpaTemplate, ledgerTemplate } from "~/features/reports-and-financial/upload-templates";
import {
  channelTemplate,
  productTemplate,
  spendTemplate,
} from "~/features/repository-and-master-data/upload-templates";
import { registerDatasets } from "~/platform/import/registry";
import type { Template } from "~/platform/import/template";

/**
 * Every dataset the import pipeline reads, each defined by its feature: the one place that names them for the
 * pipeline (app/platform/import/registry.ts), as app/round-trips.server.ts names the round trips. Every process that
 * runs the pipeline registers them first: the server entry, the worker, the CLI and the test setup.
 */

/** The upload templates, in the order /captura/manual lists them: spec 000's master data, then spec 001's datasets. */
export const UPLOAD_TEMPLATES: readonly Template[] = [
  productTemplate,
  channelTemplate,
  spendTemplate,
  planningQuantityTemplate,
  forecastTemplate,
  ledgerTemplate,
  hrTemplate,
  fpaTemplate,
  fiscalTemplate,
];

/** The round trips whose rows are HR data (those whose RoundTripDataset has `dataClass: "hr"`). */
export const HR_ROUND_TRIPS: readonly string[] = [HR_DATASET];

/** Registers the datasets with the import pipeline (again is harmless). */
export function registerPortalDatasets(): void {
  registerDatasets({
    templates: UPLOAD_TEMPLATES,
    hrRoundTrips: HR_ROUND_TRIPS,
    // The round trips' modules are each feature's screen code: loaded when an edited export comes back.
    roundTrips: async () => (await import("./round-trips.server")).ROUND_TRIPS,
  });
}
