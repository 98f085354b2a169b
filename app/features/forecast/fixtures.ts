import { EJSON } from "bson";
import type { Db } from "mongodb";
import { parseScenario, scenarioCalendar, windowMonths } from "~/features/forecast/release-points";
import { FORECAST, FORECAST_HISTORY, type ForecastRecord } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { monthStartDate } from "~/shared/months";

/** Small, known forecast data for the review's tests (loaders, actions, browser). */

export const PEOPLE = "Despesas com Pessoal";
export const GENERAL = "Despesas Gerais e Administrativas";
export const ACCOUNTS = [
  { account: "4101001 - Salários e Ordenados", label: "Salários e Ordenados", group: PEOPLE, base: 1000 },
  { account: "4101002 - Encargos Sociais", label: "Encargos Sociais", group: PEOPLE, base: 400 },
  { account: "4201001 - Aluguel de Imóveis", label: "Aluguel de Imóveis", group: GENERAL, base: 250.5 },
] as const;

/**
 * Every month of the scenario's window for each account: actuals columns hold `value` (forecast equal to it), forecast
 * columns hold `forecast` = base + the month's position (so each cell differs).
 */
export function scenarioRecords(
  rf: string,
  costCenter: string,
  accounts: readonly { account: string; label: string; group: string; base: number }[] = ACCOUNTS,
): ForecastRecord[] {
  const calendar = scenarioCalendar(parseScenario(rf)!);
  const [cost_center] = costCenter.split(" - ");
  return accounts.flatMap((a) =>
    windowMonths(calendar).map((m, i) => {
      const actual = m < calendar.firstForecastMonth;
      return {
        rf,
        cost_center_concat: costCenter,
        cost_center,
        level_descr: "Comercial",
        group_level_2: a.group,
        data_ref: monthStartDate(m),
        account_concat: a.account,
        acc_description: a.label,
        value: actual ? a.base + i : 0,
        forecast: a.base + i,
      };
    }),
  );
}

export async function insertScenario(
  db: Db,
  rf: string,
  costCenter: string,
  accounts?: Parameters<typeof scenarioRecords>[2],
) {
  await db.collection<ForecastRecord>(FORECAST).insertMany(scenarioRecords(rf, costCenter, accounts));
}

/**
 * Makes `user` a preparer of each cost centre (a preparer reads only the cost centres they prepare: the forecast's read
 * rule, app/models/forecast-readers.server.ts); an assignment already there is left as it is.
 */
export async function assignPreparer(db: Db, user: string, ...costCentres: string[]) {
  for (const cost_center_concat of costCentres)
    await db
      .collection(FORECAST_PREPARERS)
      .updateOne(
        { cost_center_concat, user },
        { $setOnInsert: { cost_center_concat, user, assigned_at: new Date(), assigned_by: "test" } },
        { upsert: true },
      );
}

/** The forecast cells and their history as sorted EJSON lines: equal before and after means nothing changed. */
export async function dumpForecast(db: Db): Promise<string[]> {
  const lines: string[] = [];
  for (const name of [FORECAST, FORECAST_HISTORY]) {
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    lines.push(...docs.map((d) => `${name} ${EJSON.stringify(d, { relaxed: false })}`));
  }
  return lines;
}
