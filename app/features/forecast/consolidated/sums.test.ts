import type { Db } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS, foldRollups, type RollupSource, readRollups } from "~/models/forecast-consolidated.server";
import { expectSumsFresh, makeRandom, RF, useSeededForecast, WRITE_PATHS } from "./write-paths.fixture";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The consolidated view's sums never drift from the records: after each kind of write (the grid's save of typed
 * cells, a paste and a mass change, the Excel round trip inline, queued and through /captura/manual, the "forecast"
 * upload template), with random edits, every level (company, area, cost centre, group, account) equals a fresh
 * aggregate of the records, month by month and for the year; and each stored rollup equals a fresh fold of its
 * records. The CLI's import: server/cli-forecast-consolidated.test.ts.
 */

const seeded = useSeededForecast({ clear: [FORECAST, FORECAST_HISTORY, FORECAST_ROLLUPS, "files", "forecast_nok"] });
let db: Db;

beforeEach(() => {
  db = seeded.db;
});

/** Each stored rollup of the RF equals a fold of its records read now. */
async function expectRollupsFresh(label: string) {
  const records = await db.collection<RollupSource>(FORECAST).find({ rf: RF }).sort({ data_ref: 1 }).toArray();
  const fresh = new Map(foldRollups(records).map((r) => [r.cost_center_concat, r]));
  const stored = await readRollups([RF], null);
  expect(stored.length, label).toBe(fresh.size);
  for (const rollup of stored) {
    const expected = fresh.get(rollup.cost_center_concat)!;
    const byAccount = (list: { account: string }[]) => [...list].sort((a, b) => a.account.localeCompare(b.account));
    expect(byAccount(rollup.accounts), `${label}: ${rollup.cost_center_concat}`).toEqual(byAccount(expected.accounts));
    expect(rollup.first_month, label).toEqual(expected.first_month);
  }
}

describe("the consolidated sums after every kind of write", () => {
  it("equal a fresh aggregate at every level before any write", async () => {
    await expectSumsFresh(db, "seeded");
    await expectRollupsFresh("seeded");
  });

  for (const path of WRITE_PATHS) {
    it(`stay equal to a fresh aggregate after random edits: ${path.name}`, async () => {
      await expectSumsFresh(db, "before");
      const random = makeRandom(path.name.length * 7919);
      for (let round = 1; round <= 3; round++) {
        await path.run(random);
        await expectSumsFresh(db, `${path.name}, round ${round}`);
        await expectRollupsFresh(`${path.name}, round ${round}`);
      }
    });
  }

  it("stay equal when every path runs in turn, interleaved", async () => {
    const random = makeRandom(20270215);
    await expectSumsFresh(db, "before");
    for (let round = 0; round < 10; round++) {
      const path = random.pick(WRITE_PATHS);
      await path.run(random);
      await expectSumsFresh(db, `${path.name} (#${round})`);
    }
  });
});
