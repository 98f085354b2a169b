import type { Db } from "mongodb";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, dataHeaders } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { recordQueryPlans } from "#test/query-plans";
import { resetConfigForTests } from "~/config.server";
import { reviewPath } from "~/features/forecast/forecast-filter";
import { FORECAST, FORECAST_HISTORY, type ForecastRecord } from "~/models/forecast.server";
import { FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { loader as filterLoader } from "~/routes/ij.report_create_schneider";
import { action, loader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { loader as historyLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history";
import { loader as calendarLoader } from "~/routes/ij.report_preview_schneider";
import { runInRequestScope } from "~/shared/request-scope.server";
import { readToastFromResponse } from "~/shared/toast.server";
import { uiTexts } from "~/shared/ui/texts";
import { ACCOUNTS, dumpForecast, GENERAL, insertScenario, PEOPLE, scenarioRecords } from "./fixtures";
import { changedCells, type ForecastGridPayload, initialValues } from "./forecast-grid-rules";
import { applyPercent } from "./mass-change";
import type { SaveReply } from "./review.server";
import { forecastTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The review's loaders and save as a caller sees them, with the clock pinned to 15 Feb 2027: RF2 2027 (anchor
 * 2 Jan 2027) is in its edit month, RF1 2027 (anchor 2 Oct 2026, edit month Nov 2026) is locked. Every refused save
 * is checked against the whole collection before and after.
 */

const testDb = useTestDatabase();
const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";
const OPEN = "RF2 2027";
const LOCKED = "RF1 2027";
const savedToday = process.env.PORTAL_TODAY;
let db: Db;

beforeAll(async () => {
  process.env.PORTAL_TODAY = "2027-02-15";
  resetConfigForTests();
  db = await testDb.db();
  await insertScenario(db, OPEN, MARKETING);
  await insertScenario(db, LOCKED, MARKETING);
  await insertScenario(db, OPEN, RETAIL, [
    { account: "4301001 - Mídia Digital", label: "Mídia Digital", group: "Marketing e Vendas", base: 90 },
  ]);
  await db.collection(FORECAST).insertOne({
    rf: "actual",
    cost_center_concat: "CC1003 - Só Realizado",
    data_ref: new Date(Date.UTC(2027, 0, 1)),
    value: 1,
    forecast: 0,
  });
});

afterAll(() => {
  if (savedToday === undefined) delete process.env.PORTAL_TODAY;
  else process.env.PORTAL_TODAY = savedToday;
  resetConfigForTests();
});

/** The cost centres the gold user prepares: a preparer reads only theirs (the forecast's read rule, read-rule.test.ts). */
const PREPARED = [
  MARKETING,
  RETAIL,
  "CC1003 - Só Realizado",
  "CC1004 - Importação Quebrada",
  "CC1005 - Realizado Separado",
];

beforeEach(async () => {
  currentUser.type = "USER GOLD";
  currentUser.email = "gold@example.com";
  currentUser.name = "Gold User";
  await db.collection(FORECAST_PREPARERS).deleteMany({});
  await db.collection(FORECAST_PREPARERS).insertMany(
    PREPARED.map((cost_center_concat) => ({
      cost_center_concat,
      user: "gold@example.com",
      assigned_at: new Date(),
      assigned_by: "test",
    })),
  );
});

/** A loader's or action's answer: a `data()` result, a plain object or a thrown Response. */
async function answer<Body = unknown>(
  run: () => Promise<unknown>,
): Promise<{ status: number; body: Body; response?: Response }> {
  try {
    const result = await run();
    if (result instanceof Response)
      return {
        status: result.status,
        body: (await result
          .clone()
          .json()
          .catch(() => null)) as Body,
        response: result,
      };
    return dataAnswer<Body>(result);
  } catch (error) {
    if (error instanceof Response) return { status: error.status, body: null as Body, response: error };
    throw error;
  }
}

const url = (path: string) => `http://localhost${path}`;
const reviewArgs = (rf: string, costCenter: string, query = "") => ({
  request: new Request(url(`${reviewPath(rf, costCenter)}${query}`)),
  params: { rf, cost_center_concat: costCenter },
  context: {} as never,
});

function saveRequest(rf: string, costCenter: string, body: unknown, contentType = "application/json") {
  return {
    request: new Request(url(reviewPath(rf, costCenter)), {
      method: "POST",
      headers: { "Content-Type": contentType, Origin: "http://localhost" },
      body: typeof body === "string" ? body : JSON.stringify(body),
    }),
    params: { rf, cost_center_concat: costCenter },
    context: {} as never,
  };
}

/** The review page as the tests read it (a missing review answers 404 and is checked as such). */
type ReviewPage = Extract<BodyOf<typeof loader>, { found: true }>;
/** A save's reply, in the shape of a refusal (an accepted save is compared whole). */
type SaveRefusal = Extract<SaveReply, { ok: false }>;
type HistoryReply = { entries: { who: string; old: string; new: string; oldValue: number; when: string }[] };

const save = (rf: string, costCenter: string, body: unknown, contentType?: string) =>
  answer<SaveRefusal>(() => action(saveRequest(rf, costCenter, body, contentType)));
const change = (account: string, month: string, old: number, value: number | string) => ({
  account,
  month,
  old,
  value,
});
const SALARIES = ACCOUNTS[0].account;
// In RF2 2027 the window starts Feb 2026: month position i holds base + i; forecast columns start at Feb 2027 (i = 12).
const stored = (base: number, month: string) => {
  const [y, m] = month.split("-").map(Number);
  return base + (y - 2026) * 12 + (m - 2);
};

describe("the review grid (loader)", () => {
  it("reads the page in one command: the cost centre, its window, the cycle panel, the versions and the comment marks; an unknown cost centre is a 404 all the same", async () => {
    const page = (costCenter: string) =>
      recordQueryPlans(db, () =>
        runInRequestScope(() => answer<ReviewPage>(() => loader(reviewArgs(OPEN, costCenter)))),
      );
    // The preparer: the read rule's read of their assignment goes with the page's reads, not as a command of its own
    // (the other command is the submission's count of the cells changed since the last one, a preparer's only).
    const asPreparer = await page(MARKETING);
    expect(asPreparer.result?.status).toBe(200);
    expect(asPreparer.plans.map((p) => p.ns.split(".").pop())).toEqual([FORECAST, FORECAST_HISTORY]);
    // A reviewer: one command.
    Object.assign(currentUser, { type: "SYSTEM ADMIN", email: "admin@example.com", name: "Admin" });
    const found = await page(MARKETING);
    expect(found.result?.status).toBe(200);
    expect(found.result?.body.costCenter).toEqual({
      cost_center_concat: MARKETING,
      cost_center: expect.any(String),
      level_descr: expect.any(String),
    });
    expect(found.result?.body.grid.groups.length).toBeGreaterThan(0);
    expect(found.plans.map((p) => p.ns.split(".").pop())).toEqual([FORECAST]);
    // A reviewer's 404 (a preparer is refused any cost centre not theirs, existing or not: read-rule.test.ts).
    const missing = await page("CC9999 - Nenhum");
    expect(missing.result?.status).toBe(404);
    expect(missing.result?.body).toMatchObject({ found: false, message: forecastTexts.unknownReview });
    expect(missing.plans).toHaveLength(1);
  });

  it("sends the window of the scenario and cost centre: 25 months, actuals before the edit month, forecasts from it, open today", async () => {
    const { status, body } = await answer<ReviewPage>(() => loader(reviewArgs(OPEN, MARKETING)));
    expect(status).toBe(200);
    expect(body.found).toBe(true);
    expect(body.open).toBe(true);
    expect(body.facts).toEqual({
      anchor: "02/01/2027",
      editMonth: "02/2027",
      from: "02/2026",
      to: "02/2028",
      lastEditDay: "28/02/2027",
    });
    const { grid } = body;
    expect(grid.months).toHaveLength(25);
    expect(grid.months[0]).toBe("2026-02");
    expect(grid.firstForecastIndex).toBe(12);
    expect(grid.editable).toBe(true);
    expect(grid.totals.map((t: { year: number; indexes: number[] }) => [t.year, t.indexes.length])).toEqual([
      [2026, 11],
      [2027, 12],
      [2028, 2],
    ]);
    expect(grid.groups.map((g: { name: string }) => g.name)).toEqual([PEOPLE, GENERAL]);
    const salaries = grid.groups[0].accounts[0];
    expect(salaries.account).toBe(SALARIES);
    expect(salaries.values[0]).toBe(1000);
    expect(salaries.values[12]).toBe(1012);
    expect(salaries.edited).toEqual([]);
  });

  it("shows a record without an amount (a broken import) as an empty cell, every other month of the account in its place", async () => {
    const BROKEN = "CC1004 - Importação Quebrada";
    await insertScenario(db, OPEN, BROKEN, [
      { account: "4101001 - Salários", label: "Salários", group: PEOPLE, base: 500 },
    ]);
    const at = (month: string) => ({
      rf: OPEN,
      cost_center_concat: BROKEN,
      data_ref: new Date(`${month}-01T00:00:00Z`),
    });
    await db.collection(FORECAST).updateOne(at("2026-05"), { $unset: { value: "" } });
    await db.collection(FORECAST).updateOne(at("2027-06"), { $unset: { forecast: "" } });
    const { status, body } = await answer<ReviewPage>(() => loader(reviewArgs(OPEN, BROKEN)));
    // The other tests list the cost centres: this one leaves none behind.
    await db.collection(FORECAST).deleteMany({ cost_center_concat: BROKEN });
    expect(status).toBe(200);
    const [line] = body.grid.groups[0].accounts;
    const months: string[] = body.grid.months;
    const expected = months.map((month, i) => {
      if (month === "2026-05" || month === "2027-06") return null;
      const [doc] = scenarioRecords(OPEN, BROKEN, [
        { account: "4101001 - Salários", label: "Salários", group: PEOPLE, base: 500 },
      ]).filter((r) => r.data_ref.toISOString().startsWith(month));
      return i >= body.grid.firstForecastIndex ? doc.forecast : doc.value;
    });
    expect(line.values).toEqual(expected);
    expect(line.values.filter((v: number | null) => v === null)).toHaveLength(2);
  });

  it("takes an actual month's amount from the rf \"actual\" record when the RF record has none, and keeps the RF record's own", async () => {
    const SPLIT = "CC1005 - Realizado Separado";
    const account = { account: "4101001 - Salários", label: "Salários", group: PEOPLE, base: 700 };
    await insertScenario(db, OPEN, SPLIT, [account]);
    const at = (rf: string, month: string) => ({
      rf,
      cost_center_concat: SPLIT,
      account_concat: account.account,
      data_ref: new Date(`${month}-01T00:00:00Z`),
    });
    // The RF scenario keeps no actuals: its actual months carry no value, and one of them has no record at all.
    await db
      .collection(FORECAST)
      .updateMany(
        { rf: OPEN, cost_center_concat: SPLIT, data_ref: { $lt: new Date("2027-01-01T00:00:00Z") } },
        { $unset: { value: "" } },
      );
    await db.collection(FORECAST).deleteOne(at(OPEN, "2026-03"));
    // Except one month, whose own amount stays.
    await db.collection(FORECAST).updateOne(at(OPEN, "2026-04"), { $set: { value: 42 } });
    // The actuals live under rf "actual".
    const months = ["2026-02", "2026-03", "2026-04", "2026-05"];
    await db.collection(FORECAST).insertMany(
      months.map((month, i) => ({
        ...at("actual", month),
        cost_center: "CC1005",
        level_descr: "",
        group_level_2: PEOPLE,
        acc_description: account.label,
        value: 9000 + i,
        forecast: 0,
      })),
    );
    const { body } = await answer<ReviewPage>(() => loader(reviewArgs(OPEN, SPLIT)));
    await db.collection(FORECAST).deleteMany({ cost_center_concat: SPLIT });
    const [line] = body.grid.groups[0].accounts;
    const index = (month: string) => body.grid.months.indexOf(month);
    expect(line.values[index("2026-02")]).toBe(9000);
    expect(line.values[index("2026-03")]).toBe(9001);
    expect(line.values[index("2026-04")]).toBe(42);
    expect(line.values[index("2026-05")]).toBe(9003);
    // A month with neither stays empty.
    expect(line.values[index("2026-06")]).toBeNull();
  });

  it("shows a scenario outside its edit month locked", async () => {
    const { body } = await answer<ReviewPage>(() => loader(reviewArgs(LOCKED, MARKETING)));
    expect(body.open).toBe(false);
    expect(body.grid.editable).toBe(false);
    expect(body.grid.months).toHaveLength(26);
    expect(body.facts.editMonth).toBe("11/2026");
  });

  it.each([
    ["an unknown period", "RF9 2027", MARKETING, forecastTexts.invalidScenario],
    ["the actual scenario", "actual", MARKETING, forecastTexts.invalidScenario],
    ["a cost centre the period does not have", OPEN, "CC9999 - Inexistente", forecastTexts.unknownReview],
    ["a cost centre spelled differently", OPEN, "cc1001 - marketing", forecastTexts.unknownReview],
    ["an operator in place of the cost centre", OPEN, '{"$ne":""}', forecastTexts.unknownReview],
  ])("answers 404 with a message for %s", async (_label, rf, costCenter, message) => {
    // A reviewer, who reads every cost centre (a preparer is refused one not theirs: read-rule.test.ts).
    currentUser.type = "SYSTEM ADMIN";
    const { status, body } = await answer(() => loader(reviewArgs(rf, costCenter)));
    expect(status).toBe(404);
    expect(body).toMatchObject({ found: false, message });
  });

  it("refuses the types outside the rule (403) on the loader, the save and the history", async () => {
    currentUser.type = "USER SILVER";
    const before = await dumpForecast(db);
    expect((await answer<ReviewPage>(() => loader(reviewArgs(OPEN, MARKETING)))).status).toBe(403);
    expect(
      (await save(OPEN, MARKETING, { intent: "save", changes: [change(SALARIES, "2027-03", 1013, 5)] })).status,
    ).toBe(403);
    expect((await answer(() => historyLoader(reviewArgs(OPEN, MARKETING, "?account=x&month=2027-03")))).status).toBe(
      403,
    );
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("saving", () => {
  it("writes only the changed cells, each with who, when, the old and the new value, and the grid shows them after a reload", async () => {
    const before = await db.collection<ForecastRecord>(FORECAST).find({}).sort({ _id: 1 }).toArray();
    const { status, body } = await save(OPEN, MARKETING, {
      intent: "save",
      changes: [
        change(SALARIES, "2027-03", stored(1000, "2027-03"), 1234.5),
        change(ACCOUNTS[2].account, "2028-02", stored(250.5, "2028-02"), 0),
      ],
    });
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, saved: 2 });
    const after = await db.collection<ForecastRecord>(FORECAST).find({}).sort({ _id: 1 }).toArray();
    expect(after).toHaveLength(before.length);
    const changed = after.filter((doc, i) => JSON.stringify(doc) !== JSON.stringify(before[i]));
    expect(changed.map((d) => [d.account_concat, d.data_ref.toISOString().slice(0, 7), d.forecast])).toEqual([
      [SALARIES, "2027-03", 1234.5],
      [ACCOUNTS[2].account, "2028-02", 0],
    ]);
    const salaries = changed[0];
    expect(salaries.edited_by).toBe("gold@example.com");
    expect(Date.now() - (salaries.edited_at?.getTime() ?? 0)).toBeLessThan(60_000);
    // Nothing but forecast and the edit record changed on the document.
    const original = before.find((d) => String(d._id) === String(salaries._id));
    expect({ ...salaries, forecast: original?.forecast, edited_by: undefined, edited_at: undefined }).toEqual({
      ...original,
      edited_by: undefined,
      edited_at: undefined,
    });
    // One history entry per written cell: the cell, who, when, old and new.
    const history = await db
      .collection(FORECAST_HISTORY)
      .find({}, { projection: { _id: 0 } })
      .sort({ account_concat: 1 })
      .toArray();
    expect(history).toEqual([
      {
        rf: OPEN,
        cost_center_concat: MARKETING,
        account_concat: SALARIES,
        data_ref: new Date(Date.UTC(2027, 2, 1)),
        at: salaries.edited_at,
        by: "gold@example.com",
        name: "Gold User",
        old: 1013,
        new: 1234.5,
      },
      {
        rf: OPEN,
        cost_center_concat: MARKETING,
        account_concat: ACCOUNTS[2].account,
        data_ref: new Date(Date.UTC(2028, 1, 1)),
        at: salaries.edited_at,
        by: "gold@example.com",
        name: "Gold User",
        old: stored(250.5, "2028-02"),
        new: 0,
      },
    ]);

    const { body: page } = await answer<ReviewPage>(() => loader(reviewArgs(OPEN, MARKETING)));
    expect(page.grid.groups[0].accounts[0].values[13]).toBe(1234.5);
    expect(page.grid.groups[0].accounts[0].edited).toEqual([13]);
  });

  it("confirms a save with the portal's toast (as an Excel import does), and a refused one without", async () => {
    const toastOf = async (body: unknown) => {
      const headers = dataHeaders(await action(saveRequest(OPEN, MARKETING, body)));
      return readToastFromResponse(new Response(null, { headers }));
    };
    // A cell no other test reads.
    const month = "2027-09";
    const value = stored(1000, month);
    expect(await toastOf({ intent: "save", changes: [change(SALARIES, month, value, 4321)] })).toMatchObject({
      type: "success",
      description: uiTexts.saved,
    });
    expect(await toastOf({ intent: "save", changes: [change(SALARIES, month, value, 5)] })).toBeNull();
  });

  it("lists a cell's history newest first, with who and when, through the history route", async () => {
    await save(OPEN, MARKETING, { intent: "save", changes: [change(SALARIES, "2027-03", 1234.5, 2000)] });
    const { status, body } = await answer<HistoryReply>(() =>
      historyLoader(
        reviewArgs(OPEN, MARKETING, `/history?${new URLSearchParams({ account: SALARIES, month: "2027-03" })}`),
      ),
    );
    expect(status).toBe(200);
    expect(body.entries.map((e) => [e.who, e.old, e.new])).toEqual([
      ["Gold User (gold@example.com)", "1.234,50", "2.000,00"],
      ["Gold User (gold@example.com)", "1.013,00", "1.234,50"],
    ]);
    // The earlier value as a number, for "Restaurar".
    expect(body.entries[0].oldValue).toBe(1234.5);
    expect(body.entries[0].when).toMatch(/^\d{2} [a-z]{3} \d{2} \d{2}:\d{2}:\d{2}$/);
    const empty = await answer(() =>
      historyLoader(
        reviewArgs(OPEN, MARKETING, `/history?${new URLSearchParams({ account: SALARIES, month: "2027-04" })}`),
      ),
    );
    expect(empty.body).toEqual({ ok: true, entries: [] });
    for (const query of [
      "?account=&month=2027-03",
      `?account=x&month=2031-01`,
      "?month=2027-03",
      `?account=${encodeURIComponent(SALARIES)}&month=27-3`,
    ]) {
      expect((await answer(() => historyLoader(reviewArgs(OPEN, MARKETING, `/history${query}`)))).status, query).toBe(
        400,
      );
    }
    expect(
      (await answer(() => historyLoader(reviewArgs(OPEN, MARKETING, "/history?account=Nada&month=2027-03")))).status,
    ).toBe(404);
    expect(
      (await answer(() => historyLoader(reviewArgs("RF9 2027", MARKETING, "/history?account=Nada&month=2027-03"))))
        .status,
    ).toBe(404);
  });

  it("refuses a cell someone else saved since it was loaded, shows who and the stored value, and writes none of the request", async () => {
    const month = "2027-05";
    await db.collection<ForecastRecord>(FORECAST).updateOne(
      {
        rf: OPEN,
        cost_center_concat: MARKETING,
        account_concat: ACCOUNTS[1].account,
        data_ref: new Date(Date.UTC(2027, 4, 1)),
      },
      { $set: { forecast: 777, edited_by: "other@example.com", edited_at: new Date(Date.UTC(2027, 1, 10, 14, 30)) } },
    );
    const before = await dumpForecast(db);
    const { status, body } = await save(OPEN, MARKETING, {
      intent: "save",
      changes: [
        change(SALARIES, month, stored(1000, month), 1),
        change(ACCOUNTS[1].account, month, stored(400, month), 2),
      ],
    });
    expect(status).toBe(409);
    expect(body.message).toBe(forecastTexts.conflicts(1));
    expect(body.conflicts).toEqual([
      {
        account: ACCOUNTS[1].account,
        month,
        current: 777,
        text: forecastTexts.conflictCell("other@example.com", "10 fev 27 11:30:00", "777,00"),
      },
    ]);
    expect(await dumpForecast(db)).toEqual(before);
    // With the stored value as the base, the same change goes through.
    expect(
      (await save(OPEN, MARKETING, { intent: "save", changes: [change(ACCOUNTS[1].account, month, 777, 2)] })).body,
    ).toEqual({ ok: true, saved: 1 });
  });
});

describe("a save sent again", () => {
  /** The body the grid sends for `edit` applied to the loaded values of September 2027 (what a mass change or a paste does). */
  async function gridSave(edit: (value: number, line: number) => number) {
    const { body: page } = await answer<ReviewPage>(() => loader(reviewArgs(OPEN, MARKETING)));
    const grid = page.grid as ForecastGridPayload;
    const column = grid.months.indexOf("2027-09");
    const original = initialValues(grid.groups);
    const current = original.map((values, line) =>
      values.map((v, m) => (m === column && v !== null ? edit(v, line) : v)),
    );
    return { intent: "save", changes: changedCells(grid.groups, grid.months, original, current) };
  }

  it("is refused with the conflict message and changes nothing, also after the cells were set back to the values it was made on", async () => {
    const loaded = (await answer<ReviewPage>(() => loader(reviewArgs(OPEN, MARKETING)))).body
      .grid as ForecastGridPayload;
    const september = initialValues(loaded.groups).map((values) => values[loaded.months.indexOf("2027-09")]!);
    // +10 % on the column (the mass change), saved.
    const first = await gridSave((v) => applyPercent(v, 10, "increase"));
    expect(first.changes).toHaveLength(3);
    expect((await save(OPEN, MARKETING, first)).body).toEqual({ ok: true, saved: 3 });

    let before = await dumpForecast(db);
    const again = await save(OPEN, MARKETING, first);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ok: false, message: forecastTexts.conflicts(3) });
    expect(await dumpForecast(db)).toEqual(before);

    // The loaded values pasted back and saved: each cell holds what the first save found, but it changed since.
    const back = await gridSave((_v, line) => september[line]);
    expect((await save(OPEN, MARKETING, back)).body).toEqual({ ok: true, saved: 3 });
    before = await dumpForecast(db);
    const late = await save(OPEN, MARKETING, first);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ ok: false, message: forecastTexts.conflicts(3) });
    expect(await dumpForecast(db)).toEqual(before);
    // The paste's body again: refused as well.
    expect((await save(OPEN, MARKETING, back)).status).toBe(409);
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("refused saves change nothing", () => {
  const valid = change(SALARIES, "2027-06", stored(1000, "2027-06"), 5);
  const cases: [string, string, string, unknown, number, string][] = [
    ["an empty form body", OPEN, MARKETING, "", 400, forecastTexts.invalidSave],
    ["a form instead of JSON", OPEN, MARKETING, "intent=save&changes=1", 400, forecastTexts.invalidSave],
    ["no changes", OPEN, MARKETING, { intent: "save", changes: [] }, 400, forecastTexts.nothingToSave],
    ["another intent", OPEN, MARKETING, { intent: "delete", changes: [valid] }, 400, forecastTexts.invalidSave],
    [
      "an unknown field",
      OPEN,
      MARKETING,
      { intent: "save", changes: [{ ...valid, $set: { value: 1 } }] },
      400,
      forecastTexts.invalidSave,
    ],
    [
      "an operator for the account",
      OPEN,
      MARKETING,
      { intent: "save", changes: [{ ...valid, account: { $ne: "" } }] },
      400,
      forecastTexts.invalidSave,
    ],
    [
      "a pasted text value",
      OPEN,
      MARKETING,
      { intent: "save", changes: [valid, change(SALARIES, "2027-07", stored(1000, "2027-07"), "abc")] },
      400,
      forecastTexts.notANumber("abc"),
    ],
    [
      "too many decimals",
      OPEN,
      MARKETING,
      { intent: "save", changes: [valid, change(SALARIES, "2027-07", stored(1000, "2027-07"), 1.234)] },
      400,
      forecastTexts.tooManyDecimals("1,234"),
    ],
    [
      "a value beyond 15 digits",
      OPEN,
      MARKETING,
      { intent: "save", changes: [change(SALARIES, "2027-07", 1, 1e13)] },
      400,
      forecastTexts.valueOutOfRange,
    ],
    [
      "a closed (actuals) month",
      OPEN,
      MARKETING,
      { intent: "save", changes: [valid, change(SALARIES, "2027-01", 1011, 5)] },
      400,
      forecastTexts.columnRefused("01/2027"),
    ],
    [
      "a month outside the window",
      OPEN,
      MARKETING,
      { intent: "save", changes: [change(SALARIES, "2028-03", 1, 5)] },
      400,
      forecastTexts.columnRefused("03/2028"),
    ],
    [
      "a malformed month",
      OPEN,
      MARKETING,
      { intent: "save", changes: [change(SALARIES, "2027-13", 1, 5)] },
      400,
      forecastTexts.columnRefused("2027-13"),
    ],
    [
      "a group row",
      OPEN,
      MARKETING,
      { intent: "save", changes: [valid, change(PEOPLE, "2027-07", 0, 5)] },
      400,
      forecastTexts.rowRefused(PEOPLE),
    ],
    [
      "a total row",
      OPEN,
      MARKETING,
      { intent: "save", changes: [change(forecastTexts.grandTotal, "2027-07", 0, 5)] },
      400,
      forecastTexts.rowRefused(forecastTexts.grandTotal),
    ],
    [
      "another cost centre's account",
      OPEN,
      MARKETING,
      { intent: "save", changes: [change("4301001 - Mídia Digital", "2027-07", 90 + 17, 5)] },
      400,
      forecastTexts.rowRefused("4301001 - Mídia Digital"),
    ],
    [
      "the same cell twice",
      OPEN,
      MARKETING,
      { intent: "save", changes: [valid, valid] },
      400,
      forecastTexts.duplicateCell(SALARIES, "06/2027"),
    ],
    [
      "a locked scenario's cells",
      LOCKED,
      MARKETING,
      { intent: "save", changes: [change(SALARIES, "2027-06", stored(1000, "2027-06") + 7, 5)] },
      409,
      forecastTexts.lockedRefused(LOCKED, "11/2026"),
    ],
    [
      "a forged period",
      "RF9 2027",
      MARKETING,
      { intent: "save", changes: [valid] },
      404,
      forecastTexts.invalidScenario,
    ],
    [
      "a forged cost centre (not the preparer's: the forecast's read rule)",
      OPEN,
      "CC9999 - Inexistente",
      { intent: "save", changes: [valid] },
      403,
      uiTexts.forbidden,
    ],
    [
      "more cells than a save may carry",
      OPEN,
      MARKETING,
      { intent: "save", changes: Array.from({ length: 20_001 }, () => valid) },
      400,
      forecastTexts.tooManyCells(20_000),
    ],
  ];

  it.each(cases)("refuses %s", async (_label, rf, costCenter, body, status, message) => {
    const before = await dumpForecast(db);
    const result = await save(rf, costCenter, body);
    expect(result.status).toBe(status);
    expect(result.body).toMatchObject({ ok: false, message });
    expect(await dumpForecast(db)).toEqual(before);
  });

  it("refuses a body over 4 MB without reading it all", async () => {
    const before = await dumpForecast(db);
    const result = await save(OPEN, MARKETING, `{"intent":"save","changes":[${"1,".repeat(2_200_000)}1]}`);
    expect(result.status).toBe(413);
    expect(await dumpForecast(db)).toEqual(before);
  });
});

describe("the filter (loader)", () => {
  const filter = (query: string) =>
    answer<BodyOf<typeof filterLoader>>(() =>
      filterLoader({
        request: new Request(url(`/ij/report_create_schneider${query}`)),
        params: {},
        context: {} as never,
      }),
    );

  it("lists the RF periods (latest anchor first, the open one marked) and the cost centres, from distinct", async () => {
    const { status, body } = await filter("");
    expect(status).toBe(200);
    expect(body.scenarios).toEqual([
      { name: OPEN, open: true },
      { name: LOCKED, open: false },
    ]);
    expect(body.costCenters).toEqual([MARKETING, RETAIL, "CC1003 - Só Realizado"]);
    expect(body.error).toBeNull();
  });

  it("shows a preparer their own cost centres in the open RF (state, days left, link) and marks them in the picker", async () => {
    await db.collection("forecast_preparers").deleteMany({});
    await db.collection("forecast_preparers").insertMany([
      {
        cost_center_concat: RETAIL,
        user: "gold@example.com",
        name: "Gabriela",
        assigned_by: "x",
        assigned_at: new Date(),
      },
      {
        cost_center_concat: MARKETING,
        user: "outra@example.com",
        name: "Outra",
        assigned_by: "x",
        assigned_at: new Date(),
      },
    ]);
    try {
      const { body } = await filter("");
      // 15 Feb 2027: RF2 2027's edit month ends on 28 Feb, 13 days later.
      expect(body.mine).toEqual({
        rf: OPEN,
        rows: [
          {
            cost_center_concat: RETAIL,
            stateLabel: expect.any(String),
            state: "preparing",
            daysLeft: 13,
            href: "/ij/report_preview_edit_schneider/RF2%202027/CC1002%20-%20Vendas%20Varejo",
            // Not returned: no reviewer's reason to show.
            returned: null,
          },
        ],
      });
      // The picker holds only the cost centres the preparer may read.
      expect(body.costCenters).toEqual([RETAIL]);
      expect(body.preparedByMe).toEqual([RETAIL]);
      // Someone who prepares none gets no section.
      currentUser.email = "ninguem@example.com";
      expect((await filter("")).body.mine).toBeNull();
    } finally {
      await db.collection("forecast_preparers").deleteMany({});
    }
  });

  it("preselects the URL's choices without going anywhere (the review's breadcrumb)", async () => {
    const { status, body } = await filter(`?${new URLSearchParams({ rf: OPEN, cost_center: MARKETING })}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ rf: OPEN, costCenter: MARKETING, error: null });
  });

  it("goes to the review with both values in the path, spaces and all", async () => {
    const { response } = await filter(
      `?${new URLSearchParams({ rf: OPEN, cost_center: MARKETING, intent: "generate" })}`,
    );
    expect(response).toRedirectTo("/ij/report_preview_edit_schneider/RF2%202027/CC1001%20-%20Marketing");
    // A searchable field: the only cost centre containing the text, ignoring case and accents.
    const partial = await filter(
      `?${new URLSearchParams({ rf: OPEN, cost_center: "VENDAS varejo", intent: "generate" })}`,
    );
    expect(partial.response).toRedirectTo(reviewPath(OPEN, RETAIL));
  });

  it.each([
    ["no period", { cost_center: MARKETING }, forecastTexts.filterIncomplete],
    ["no cost centre", { rf: OPEN }, forecastTexts.filterIncomplete],
    ["an unknown period", { rf: "RF3 2031", cost_center: MARKETING }, forecastTexts.unknownPeriod],
    ["an unknown cost centre", { rf: OPEN, cost_center: "Jurídico" }, forecastTexts.unknownCostCenter("Jurídico")],
    ["an ambiguous cost centre", { rf: OPEN, cost_center: "CC100" }, forecastTexts.ambiguousCostCenter("CC100", 3)],
  ])("stays on the filter with a message for %s", async (_label, params, message) => {
    const { status, body } = await filter(`?${new URLSearchParams({ ...params, intent: "generate" })}`);
    expect(status).toBe(400);
    expect(body.error).toBe(message);
  });
});

describe("the calendar (/ij/report_preview_schneider)", () => {
  it("lists each period with its anchor, edit month, window, state today and cost centres", async () => {
    const { body } = await answer<BodyOf<typeof calendarLoader>>(() =>
      calendarLoader({ request: new Request(url("/ij/report_preview_schneider")), params: {}, context: {} as never }),
    );
    expect(body.rows).toEqual([
      {
        name: OPEN,
        anchor: "02/01/2027",
        editMonth: "02/2027",
        window: "02/2026 a 02/2028",
        open: true,
        costCenters: 2,
        href: "/ij/report_create_schneider?rf=RF2+2027",
      },
      {
        name: LOCKED,
        anchor: "02/10/2026",
        editMonth: "11/2026",
        window: "11/2025 a 12/2027",
        open: false,
        costCenters: 1,
        href: "/ij/report_create_schneider?rf=RF1+2027",
      },
    ]);
  });
});

// Last: it writes history that the tests above count.
describe("a save with spread cells", () => {
  it("records the cells a save marks as spread as distributed, one by one, and the others as typed", async () => {
    const MEDIA = "4301001 - Mídia Digital";
    const { status } = await save(OPEN, RETAIL, {
      intent: "save",
      changes: [
        { ...change(MEDIA, "2027-04", stored(90, "2027-04"), 50), spread: true },
        change(MEDIA, "2027-05", stored(90, "2027-05"), 60),
      ],
    });
    expect(status).toBe(200);
    const history = await db
      .collection(FORECAST_HISTORY)
      .find({ cost_center_concat: RETAIL, account_concat: MEDIA }, { projection: { _id: 0, data_ref: 1, via: 1 } })
      .sort({ data_ref: 1 })
      .toArray();
    expect(history.map((h) => [h.data_ref.toISOString().slice(0, 7), h.via ?? null])).toEqual([
      ["2027-04", "spread"],
      ["2027-05", null],
    ]);
    // Anything but `true` is a broken client's body.
    const forged = await save(OPEN, RETAIL, {
      intent: "save",
      changes: [{ ...change(MEDIA, "2027-06", stored(90, "2027-06"), 1), spread: "yes" }],
    });
    expect(forged.status).toBe(400);
  });
});
