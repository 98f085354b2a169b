import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, isDataResult } from "#test/answers";
import { uploadAndProcess } from "#test/uploads";
import { resetConfigForTests } from "~/config.server";
import { CELL_COMMENTS } from "~/models/cell-comments.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_CYCLE, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { FORECAST_VERSION_ROWS, FORECAST_VERSIONS } from "~/models/forecast-versions.server";
import { USER_PERMISSIONS } from "~/models/users.server";
import { loader as consolidatedExcelLoader } from "~/routes/ij.forecast_consolidado.excel";
import { loader as versionsLoader } from "~/routes/ij.forecast_versoes";
import { loader as filterLoader } from "~/routes/ij.report_create_schneider";
import {
  action as reviewAction,
  loader as reviewLoader,
} from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { loader as excelLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.excel";
import { loader as historyLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat.history";
import { loader as changesLoader } from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.alteracoes";
import {
  action as commentsAction,
  loader as commentsLoader,
} from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.comentarios";
import {
  action as spreadAction,
  loader as spreadLoader,
} from "~/routes/ij.report_preview_edit_schneider_.$rf.$cost_center_concat.distribuir";
import { monthKey, monthLabel } from "~/shared/months";
import { uiTexts } from "~/shared/ui/texts";
import { consolidatedTexts } from "./consolidated/texts";
import {
  ADMIN,
  CENTRES,
  calendar,
  consolidatedPage,
  post,
  RF,
  signIn,
  url,
  useSeededForecast,
} from "./consolidated/write-paths.fixture";
import { ACCOUNTS, dumpForecast } from "./fixtures";
import { reviewPath } from "./forecast-filter";
import { keepApprovedFigures } from "./versions/versions.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The forecast's one read rule (docs/decisions.md "Forecast: who reads which cost centre"), tried on every page of the
 * review, its filter, and the versions as a preparer (USER GOLD, the least-privileged reader of the review) meets
 * them: another cost centre's review is the portal's 403 on every page and every POST, with nothing read or changed;
 * a list leaves out what they may not read; their own cost centre reads as before; a reviewer reads everything.
 */

const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };
const NOBODY = { email: "nobody@example.com", name: "Sem Centro", type: "USER GOLD" as const };
const MINE = CENTRES[0].cc;
const OTHER = CENTRES[1].cc;
const ACCOUNT = ACCOUNTS[0].account;
const MONTH = monthKey(calendar.firstForecastMonth + 1);

const seeded = useSeededForecast({
  clear: [
    FORECAST,
    FORECAST_HISTORY,
    FORECAST_ROLLUPS,
    FORECAST_VERSIONS,
    FORECAST_VERSION_ROWS,
    FORECAST_CYCLE,
    FORECAST_PREPARERS,
    CELL_COMMENTS,
  ],
  users: [PREPARER, NOBODY],
  preparer: { user: PREPARER.email, cc: MINE },
});
let db: Db;

afterAll(() => vi.unstubAllEnvs());
beforeEach(() => {
  db = seeded.db;
});

const args = (request: Request, cc: string) => ({
  request,
  params: { rf: RF, cost_center_concat: cc },
  context: {} as never,
});
const get = (cc: string, tail = "") => args(new Request(url(`${reviewPath(RF, cc)}${tail}`)), cc);
const form = (cc: string, tail: string, fields: Record<string, string>) =>
  args(post(`${reviewPath(RF, cc)}${tail}`, fields), cc);

/** What a loader or action answered, thrown or returned: its status, and its text when it is a Response. */
async function outcome(run: () => Promise<unknown>): Promise<{ status: number; text: string | null }> {
  const of = async (value: unknown) =>
    value instanceof Response
      ? { status: value.status, text: await value.clone().text() }
      : isDataResult(value)
        ? { status: value.init?.status ?? 200, text: null }
        : { status: dataAnswer(value).status, text: null };
  try {
    return await of(await run());
  } catch (thrown) {
    if (thrown instanceof Response || isDataResult(thrown)) return of(thrown);
    throw thrown;
  }
}

/** Every page of one cost centre's review that reads its figures, by name. */
const READS: Record<string, (cc: string) => () => Promise<unknown>> = {
  review: (cc) => () => reviewLoader(get(cc)),
  "review vs version": (cc) => () => reviewLoader(get(cc, "?versao=000000000000000000000000&cols=rf,actual")),
  history: (cc) => () => historyLoader(get(cc, `/history?account=${encodeURIComponent(ACCOUNT)}&month=${MONTH}`)),
  excel: (cc) => () => excelLoader(get(cc, "/excel")),
  distribuir: (cc) => () => spreadLoader(get(cc, "/distribuir")),
  alteracoes: (cc) => () => changesLoader(get(cc, "/alteracoes")),
  comentarios: (cc) => () => commentsLoader(get(cc, "/comentarios")),
  thread: (cc) => () => commentsLoader(get(cc, `/comentarios?${new URLSearchParams({ conta: ACCOUNT, mes: MONTH })}`)),
};

const saveRequest = (cc: string, old: number) =>
  args(
    new Request(url(reviewPath(RF, cc)), {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: "http://localhost" },
      body: JSON.stringify({ intent: "save", changes: [{ account: ACCOUNT, month: MONTH, old, value: old + 1 }] }),
    }),
    cc,
  );

async function storedCell(cc: string): Promise<number> {
  const [y, m] = MONTH.split("-").map(Number);
  const record = await db
    .collection(FORECAST)
    .findOne({ rf: RF, cost_center_concat: cc, account_concat: ACCOUNT, data_ref: new Date(Date.UTC(y, m - 1, 1)) });
  return record!.forecast as number;
}

describe("a preparer and another cost centre's review", () => {
  it("is the portal's 403 on every page that reads it, an unknown cost centre alike", async () => {
    signIn(PREPARER);
    for (const [name, read] of Object.entries(READS)) {
      const answer = await outcome(read(OTHER));
      expect(answer.status, name).toBe(403);
    }
    const page = await outcome(READS.review(OTHER));
    expect(page.text).toBe(uiTexts.forbidden);
    expect((await outcome(READS.review("CC9999 - Nenhum"))).status).toBe(403);
  });

  it("is refused on every POST, and nothing changes", async () => {
    const before = await dumpForecast(db);
    const old = await storedCell(OTHER);
    signIn(PREPARER);
    const posts: Record<string, () => Promise<unknown>> = {
      save: () => reviewAction(saveRequest(OTHER, old)),
      cycle: () => reviewAction(form(OTHER, "", { intent: "submit", comment: "" })),
      distribuir: () =>
        spreadAction(form(OTHER, "/distribuir", { conta: ACCOUNT, total: "1000", modo: "igual", alcance: "cada" })),
      comment: () =>
        commentsAction(
          form(OTHER, `/comentarios?${new URLSearchParams({ conta: ACCOUNT, mes: MONTH })}`, {
            intent: "comment",
            text: "olá",
          }),
        ),
    };
    for (const [name, run] of Object.entries(posts)) expect((await outcome(run)).status, name).toBe(403);
    expect(await dumpForecast(db)).toEqual(before);
    expect(await db.collection(CELL_COMMENTS).countDocuments()).toBe(0);
  });

  it("refuses an edited export of it sent back through /captura/manual (status 3), changing nothing", async () => {
    // The export as a reviewer took it, one forecast cell changed.
    const edited = async (cc: string) => {
      signIn(ADMIN);
      const response = (await excelLoader(get(cc, "/excel"))) as Response;
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      let column = -1;
      sheet.getRow(1).eachCell((cell, n) => {
        if (cell.value === monthLabel(calendar.firstForecastMonth + 1)) column = n;
      });
      let row = -1;
      sheet.eachRow((line, n) => {
        if (row < 0 && line.values && JSON.stringify(line.values).includes(ACCOUNT)) row = n;
      });
      sheet.getRow(row).getCell(column).value = 4321;
      return Buffer.from(await workbook.xlsx.writeBuffer());
    };
    const others = await edited(OTHER);
    const before = await dumpForecast(db);
    const refused = await uploadAndProcess("forecast-editado.xlsx", others, { user: PREPARER.email });
    expect(refused.outcome).toMatchObject({ kind: "done", status: 3 });
    expect(await dumpForecast(db)).toEqual(before);

    const mine = await uploadAndProcess("forecast-editado.xlsx", await edited(MINE), { user: PREPARER.email });
    expect(mine.outcome).toMatchObject({ kind: "done", status: 0 });
    expect(await storedCell(MINE)).toBe(4321);
  });

  it("leaves it out of the review's filter", async () => {
    const choices = async () =>
      dataAnswer<BodyOf<typeof filterLoader>>(
        await filterLoader({
          request: new Request(url("/ij/report_create_schneider")),
          params: {},
          context: {} as never,
        }),
      ).body.costCenters;
    signIn(PREPARER);
    expect(await choices()).toEqual([MINE]);
    signIn(ADMIN);
    expect(await choices()).toEqual(CENTRES.map((c) => c.cc));
  });
});

describe("a preparer's own cost centre", () => {
  it("reads on every page as before, and saves", async () => {
    signIn(PREPARER);
    for (const [name, read] of Object.entries(READS)) expect((await outcome(read(MINE))).status, name).toBe(200);
    const old = await storedCell(MINE);
    expect((await outcome(() => reviewAction(saveRequest(MINE, old)))).status).toBe(200);
    expect(await storedCell(MINE)).toBe(old + 1);
  });

  it("offers in a comment's mentions only the people who may read the cell", async () => {
    for (const person of [PREPARER, NOBODY, ADMIN])
      await db.collection(USER_PERMISSIONS).updateOne({ user: person.email }, { $set: { name: person.name } });
    signIn(PREPARER);
    const thread = await commentsLoader(
      get(MINE, `/comentarios?${new URLSearchParams({ conta: ACCOUNT, mes: MONTH })}`),
    );
    const page = dataAnswer<Extract<BodyOf<typeof commentsLoader>, { kind: "thread" }>>(thread).body;
    const names = page.thread.mentionable.map((m) => m.name);
    expect(names).toContain(PREPARER.name);
    expect(names).toContain(ADMIN.name);
    expect(names).not.toContain(NOBODY.name);
  });
});

describe("a reviewer", () => {
  it("reads every cost centre's review on every page (SYSTEM ADMIN)", async () => {
    signIn(ADMIN);
    for (const cc of [MINE, OTHER])
      for (const [name, read] of Object.entries(READS)) expect((await outcome(read(cc))).status, name).toBe(200);
  });

  it("reads every cost centre's review as a configured reviewer type (FORECAST_REVIEWER_TYPES)", async () => {
    vi.stubEnv("FORECAST_REVIEWER_TYPES", "USER GOLD");
    resetConfigForTests();
    try {
      signIn(NOBODY);
      for (const [name, read] of Object.entries(READS)) expect((await outcome(read(OTHER))).status, name).toBe(200);
    } finally {
      vi.unstubAllEnvs();
      resetConfigForTests();
    }
  });
});

describe("a version of one cost centre (kept at its approval)", () => {
  async function approvalOfOther() {
    const version = await keepApprovedFigures(RF, OTHER, ADMIN, new Date());
    return version!._id.toHexString();
  }

  async function listed(): Promise<string[]> {
    const request = new Request(url("/ij/forecast_versoes"));
    const list = dataAnswer<BodyOf<typeof versionsLoader>>(
      await versionsLoader({ request, params: {}, context: {} as never }),
    ).body;
    return [...list.rows, ...list.approvals.rows].map((r) => r.id);
  }

  async function exportedHeaders(query: string): Promise<string[]> {
    const request = new Request(url(`/ij/forecast_consolidado/excel?rf=${encodeURIComponent(RF)}&${query}`));
    const response = (await consolidatedExcelLoader({ request, params: {}, context: {} as never })) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const headers: string[] = [];
    workbook.worksheets[0].getRow(1).eachCell((cell) => headers.push(String(cell.value)));
    return headers;
  }

  it("is neither listed, offered, opened, compared nor exported for a preparer of another", async () => {
    const id = await approvalOfOther();
    signIn(PREPARER);
    expect(await listed()).not.toContain(id);
    const view = await consolidatedPage("nivel=3");
    expect(view.options.map((o) => o.token)).not.toContain(`v:${id}`);
    for (const query of [`nivel=3&ver=v:${id}`, `nivel=3&vs=v:${id}&cols=total`]) {
      const seen = await consolidatedPage(query);
      expect(JSON.stringify([seen.baseLabel, seen.compareLabel]), query).not.toContain(OTHER);
      expect(seen.notices, query).toContain(consolidatedTexts.versionMissing);
      expect((await exportedHeaders(query)).join("|"), query).not.toContain(OTHER);
    }
  });

  it("is listed, offered and opened for a reviewer", async () => {
    const id = await approvalOfOther();
    signIn(ADMIN);
    expect(await listed()).toContain(id);
    const seen = await consolidatedPage(`nivel=3&ver=v:${id}`);
    expect(seen.options.map((o) => o.token)).toContain(`v:${id}`);
    expect(seen.baseLabel).toContain(OTHER);
    expect(seen.notices).not.toContain(consolidatedTexts.versionMissing);
  });
});
