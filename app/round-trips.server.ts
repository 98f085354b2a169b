import type { RouteId } from "~/access";
import { forecastRoundTrip } from "~/features/forecast/round-trip.server";
import { hrRoundTrip } from "~/features/hr/round-trip.server";
import { planningRoundTrip } from "~/features/planning/round-trip.server";
import { masterDataRoundTrips } from "~/features/repository-and-master-data/round-trip.server";
import { type RoundTripDataset, roundTripLookup } from "~/shared/excel/dataset";

/**
 * Every grid with an Excel round trip: the one place that names them. The machinery is in
 * app/shared/excel/; each feature describes its own datasets (`<feature>/round-trip.server.ts`); whatever handles a
 * round trip without being its screen (an edited export sent through /captura/manual, `portal export`) reads this
 * list, so no feature imports another's round trip.
 */
export const ROUND_TRIPS: readonly RoundTripDataset<RouteId>[] = [
  planningRoundTrip,
  forecastRoundTrip,
  hrRoundTrip,
  ...masterDataRoundTrips,
];

/** The dataset a returned file names in its hidden `_portal:<id>` column. */
export const roundTripById = roundTripLookup(ROUND_TRIPS);

/** The dataset `portal export <name>` names. */
export const roundTripByExportName = (name: string) => ROUND_TRIPS.find((d) => d.exportName === name);
