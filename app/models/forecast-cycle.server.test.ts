import { describe, expect, it } from "vitest";
import { useTestDatabase } from "#test/db";
import {
  type CycleEvent,
  type CycleRecord,
  cycleOf,
  FORECAST_CYCLE,
  FORECAST_CYCLE_EVENTS,
  FORECAST_PREPARERS,
  type PreparerRecord,
  preparersOf,
  reviewCycleOf,
  timelineOf,
} from "./forecast-cycle.server";

const testDb = useTestDatabase();

const CC = "CC1 - Vendas";
const event = (k: number, rf = "RF1 2027", cc = CC): CycleEvent => ({
  rf,
  cost_center_concat: cc,
  action: k % 2 ? "submit" : "return",
  from: k % 2 ? "preparing" : "submitted",
  to: k % 2 ? "submitted" : "returned",
  at: new Date(Date.UTC(2027, 0, 1, 0, 0, 60 - k)),
  by: `p${k}@x.test`,
  name: `P${k}`,
  comment: k === 3 ? "sem _id aqui" : "",
});

describe("reviewCycleOf", () => {
  it("reads what cycleOf, timelineOf and preparersOf read, in one round trip", async () => {
    const db = await testDb.db();
    expect(await reviewCycleOf("RF1 2027", CC)).toEqual({ record: null, events: [], preparers: [] });
    const record: CycleRecord = {
      rf: "RF1 2027",
      cost_center_concat: CC,
      state: "submitted",
      changed_at: new Date(Date.UTC(2027, 0, 2)),
      changed_by: "p1@x.test",
      changed_by_name: "P1",
      submitted_by: "p1@x.test",
      submitted_at: new Date(Date.UTC(2027, 0, 2)),
      preparers_at_submission: ["p1@x.test"],
    };
    await db.collection<CycleRecord>(FORECAST_CYCLE).insertMany([record, { ...record, rf: "RF2 2027" }]);
    // Out of order, and others' events around them.
    await db
      .collection<CycleEvent>(FORECAST_CYCLE_EVENTS)
      .insertMany([
        event(3),
        event(1),
        event(5),
        event(2),
        event(4),
        event(1, "RF2 2027"),
        event(1, "RF1 2027", "CC2"),
      ]);
    const preparer = (user: string, cc = CC): PreparerRecord => ({
      cost_center_concat: cc,
      user,
      assigned_at: new Date(0),
      assigned_by: "admin@x.test",
    });
    await db
      .collection<PreparerRecord>(FORECAST_PREPARERS)
      .insertMany([preparer("zeca@x.test"), preparer("ana@x.test"), preparer("bia@x.test", "CC2")]);
    const one = await reviewCycleOf("RF1 2027", CC);
    expect(one).toEqual({
      record: await cycleOf("RF1 2027", CC),
      events: await timelineOf("RF1 2027", CC),
      preparers: (await preparersOf([CC])).get(CC),
    });
    expect(one.events.map((e) => e.by)).toEqual(["p5@x.test", "p4@x.test", "p3@x.test", "p2@x.test", "p1@x.test"]);
    expect(one.preparers).toEqual(["ana@x.test", "zeca@x.test"]);
    expect((await reviewCycleOf("RF1 2027", CC, 2)).events).toEqual(await timelineOf("RF1 2027", CC, 2));
  });
});
