import type { ObjectId } from "mongodb";
import type { IndexDeclaration } from "./indexes";

/** Monthly cost-centre actuals and forecasts per release point (spec 001 §3 "Forecast record"). */

export const FORECAST = "forecast";

/** The scenario of actuals; forecasts use an RF name such as "RF1 2026". */
export const ACTUAL_SCENARIO = "actual";

export type ForecastRecord = {
  _id?: ObjectId;
  /** "actual" or an RF name such as "RF1 2026". */
  rf: string;
  /** "CC1001 - Marketing". */
  cost_center_concat: string;
  cost_center: string;
  level_descr: string;
  group_level_2: string;
  /** First day of the month, UTC. */
  data_ref: Date;
  /** "4101001 - Salários e Ordenados". */
  account_concat: string;
  acc_description: string;
  /** Actual amount (0 for months without actuals yet). */
  value: number;
  /** Forecast amount (0 in the "actual" scenario). */
  forecast: number;
};

export const indexes: IndexDeclaration[] = [
  { collection: FORECAST, key: { rf: 1, cost_center_concat: 1, data_ref: 1 }, options: { name: "rf_costCenter_dataRef" } },
];
