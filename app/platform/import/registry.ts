import type { RouteId } from "~/access";
import type { RoundTripDataset } from "~/shared/excel/dataset";
import type { CellValue } from "~/shared/excel/values";
import { type Layout, normalizeHeader, type Template } from "./template";

/**
 * The dataset registry: what the import pipeline reads, each dataset defined by its feature. app/datasets.server.ts
 * lists them and registers them here as a process starts (the server entry, the worker, the CLI, the test setup), as
 * app/round-trips.server.ts lists the round trips; the pipeline looks them up here, so it never imports a feature.
 */
export type DatasetRegistration = {
  /** Every upload template, in the order /captura/manual lists them. */
  templates: readonly Template[];
  /** The round trips whose rows are HR data (their `dataClass`), known without loading the round trips. */
  hrRoundTrips: readonly string[];
  /** The grids with an Excel round trip, loaded when an edited export comes back as an upload. */
  roundTrips: () => Promise<readonly RoundTripDataset<RouteId>[]>;
};

const registered: Template[] = [];
let byWidth: readonly Template[] = [];
let hrRoundTrips: ReadonlySet<string> = new Set();
let loadRoundTrips: DatasetRegistration["roundTrips"] | null = null;

/**
 * Every upload template, in the order /captura/manual lists them: spec 000's master data (rows kept or sent to the
 * NOK base), then the spec-001 datasets (all or nothing). Empty until registered.
 */
export const TEMPLATES: readonly Template[] = registered;

/** Registers the portal's datasets (app/datasets.server.ts); a second registration replaces the first. */
export function registerDatasets(registration: DatasetRegistration): void {
  registered.splice(0, registered.length, ...registration.templates);
  // The templates by width, widest first (ties in list order): the order a header row is matched in.
  byWidth = [...registered].sort((a, b) => b.columns.length - a.columns.length);
  hrRoundTrips = new Set(registration.hrRoundTrips);
  loadRoundTrips = registration.roundTrips;
}

function assertRegistered(): void {
  if (registered.length === 0)
    throw new Error("No upload templates are registered: the process must call registerPortalDatasets() first");
}

/**
 * The template whose every column the header row holds (any order, any case, other columns ignored), with each
 * column's position. The template with the most columns is tried first, so none is mistaken for one whose columns it
 * contains.
 */
export function detectTemplate(headerRow: readonly CellValue[]): Layout | null {
  assertRegistered();
  const positions = new Map<string, number>();
  headerRow.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    if (name && !positions.has(name)) positions.set(name, index);
  });
  for (const template of byWidth) {
    const indexes = template.columns.map((c) => positions.get(c.name.toLowerCase()) ?? -1);
    if (indexes.every((i) => i >= 0)) return { template, indexes };
  }
  return null;
}

export function templateById(id: string): Template | null {
  assertRegistered();
  return TEMPLATES.find((t) => t.id === id) ?? null;
}

/** Whether an Excel round trip's rows are HR data (its RoundTripDataset says so). */
export function isHrRoundTrip(id: string): boolean {
  assertRegistered();
  return hrRoundTrips.has(id);
}

/** The round trip a returned export names in its hidden `_portal:<id>` column. */
export async function roundTripById(id: string): Promise<RoundTripDataset<RouteId> | undefined> {
  assertRegistered();
  return (await loadRoundTrips!()).find((d) => d.id === id);
}
