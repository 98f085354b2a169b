import { EJSON } from "bson";
import { type Db, ObjectId } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { AUDIT_LOG, forgetAuditHeads } from "~/models/audit.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { FORECAST_VERSION_ROWS, FORECAST_VERSIONS } from "~/models/forecast-versions.server";
import { NOTICES } from "~/models/notices.server";
import { action as consolidatedAction } from "~/routes/ij.forecast_consolidado";
import { action as versionsAction, loader as versionsLoader } from "~/routes/ij.forecast_versoes";
import { action as reviewAction } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import { runDueTasks, SCHEDULED_TASKS } from "~/scheduled-tasks.server";
import { monthKey } from "~/shared/months";
import {
  ADMIN,
  CENTRES,
  calendar,
  consolidatedRows,
  makeRandom,
  post,
  RF,
  setToday,
  signIn,
  url,
  useSeededForecast,
  WRITE_PATHS,
} from "../consolidated/write-paths.fixture";
import { ACCOUNTS } from "../fixtures";
import { reviewPath } from "../forecast-filter";
import { versionTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * Versions as their users meet them: "Salvar versão" on the consolidated view (reviewers and SYSTEM ADMIN), a
 * version that no write path changes, compared with the live RF, deleted by SYSTEM ADMIN only with a reason, the
 * approved figures kept at approval and still there after a reopen, the closing version of an RF made once when its
 * edit month ends; the audit trail and the reviewers' notices.
 */

const REVIEWER = { email: "revisor@example.com", name: "Rui Revisor", type: "SYSTEM ADMIN" as const };
const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };
const MARKETING = CENTRES[0].cc;

const seeded = useSeededForecast({
  clear: [
    FORECAST,
    FORECAST_HISTORY,
    FORECAST_ROLLUPS,
    FORECAST_VERSIONS,
    FORECAST_VERSION_ROWS,
    FORECAST_CYCLE,
    FORECAST_CYCLE_EVENTS,
    FORECAST_PREPARERS,
    NOTICES,
    AUDIT_LOG,
    "scheduled_tasks",
    "files",
    "forecast_nok",
  ],
  onCleared: forgetAuditHeads,
  users: [REVIEWER, PREPARER],
  preparer: { user: PREPARER.email, cc: MARKETING },
});
let db: Db;

beforeEach(() => {
  db = seeded.db;
});

async function answer(promise: Promise<unknown>) {
  const result = await responseOf(promise).catch((e) => e);
  if (result instanceof Response) return { status: result.status, location: result.headers.get("Location") };
  return dataAnswer<Record<string, string>>(result);
}

const saveVersion = (nome: string) =>
  answer(
    consolidatedAction({
      request: post("/ij/forecast_consolidado", { intent: "salvar", rf: RF, nome }),
      params: {},
      context: {} as never,
    }),
  );

const deleteVersionOf = (id: string, motivo: string) =>
  answer(
    versionsAction({
      request: post("/ij/forecast_versoes", { intent: "excluir", id, motivo }),
      params: {},
      context: {} as never,
    }),
  );

async function versionsPage(query = "") {
  const request = new Request(url(`/ij/forecast_versoes${query}`));
  return dataAnswer<BodyOf<typeof versionsLoader>>(await versionsLoader({ request, params: {}, context: {} as never }))
    .body;
}

/** A version's header and rows as sorted EJSON lines: equal before and after means nothing changed. */
async function dumpVersions(): Promise<string[]> {
  const lines: string[] = [];
  for (const name of [FORECAST_VERSIONS, FORECAST_VERSION_ROWS]) {
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    lines.push(...docs.map((d) => `${name} ${EJSON.stringify(d, { relaxed: false })}`));
  }
  return lines;
}

const companyTotal = async (query = "") => (await consolidatedRows(`nivel=3${query}`)).find((r) => r.key === "total")!;

describe("Salvar versão", () => {
  it("keeps the live RF's figures under a name, audited with its totals, and tells the other reviewers", async () => {
    const live = await companyTotal();
    expect(await saveVersion("  Antes do comitê  ")).toEqual({
      status: 302,
      location: `/ij/forecast_versoes?rf=RF2+2027`,
    });
    const [header] = await db.collection(FORECAST_VERSIONS).find({}).toArray();
    expect(header).toMatchObject({
      name: "Antes do comitê",
      rf: RF,
      kind: "manual",
      created_by: ADMIN.email,
      state: "ready",
      cost_centers: CENTRES.length,
    });
    expect(header.total).toBeCloseTo(live.aTotal!, 2);
    expect(await db.collection(FORECAST_VERSION_ROWS).countDocuments({ version_id: header._id })).toBe(CENTRES.length);

    const list = await versionsPage();
    expect(list.rows).toMatchObject([{ name: "Antes do comitê", rf: RF, kind: "Salva", by: ADMIN.name }]);
    expect(list.rows[0].total).toBeCloseTo(live.aTotal!, 2);

    const audit = await db.collection(AUDIT_LOG).findOne({ "details.action": "versionSaved" });
    expect(audit).toMatchObject({
      event: "dataEdited",
      outcome: "ok",
      actor: { email: ADMIN.email },
      details: { rf: RF, name: "Antes do comitê", cost_centers: CENTRES.length },
    });
    expect(audit?.details.total).toBeCloseTo(live.aTotal!, 2);
    const notices = await db.collection(NOTICES).find({}).toArray();
    expect(notices.map((n) => [n.to, n.kind])).toEqual([[REVIEWER.email, "forecast.versionSaved"]]);
  });

  it("needs a name; a preparer (USER GOLD) may not save one", async () => {
    expect(await saveVersion("   ")).toEqual({
      status: 400,
      body: { saveError: "Dê um nome à versão (até 120 caracteres)." },
    });
    signIn(PREPARER);
    expect(await saveVersion("Minha")).toEqual({ status: 403, location: null });
    expect(await db.collection(FORECAST_VERSIONS).countDocuments()).toBe(0);
  });
});

describe("a version cannot change", () => {
  it("is the same after every write path touches its RF, and compares with the live RF", async () => {
    await saveVersion("Base");
    const before = await dumpVersions();
    const saved = await companyTotal();
    const random = makeRandom(7);
    for (const path of WRITE_PATHS) await path.run(random);
    expect(await dumpVersions()).toEqual(before);

    const live = await companyTotal();
    expect(live.aTotal).not.toBeCloseTo(saved.aTotal!, 2);
    const id = (await db.collection(FORECAST_VERSIONS).findOne({}))!._id.toHexString();
    const compared = await companyTotal(`&vs=v:${id}&cols=total,mes`);
    expect(compared.aTotal).toBeCloseTo(live.aTotal!, 2);
    expect(compared.bTotal).toBeCloseTo(saved.aTotal!, 2);
    // Opened as the figures shown, the version gives back what was saved, at every level.
    const opened = await consolidatedRows(`nivel=3&ver=v:${id}`);
    expect(opened.find((r) => r.key === "total")!.aTotal).toBeCloseTo(saved.aTotal!, 2);
  });
});

describe("deleting a version", () => {
  it("is SYSTEM ADMIN's only, needs a reason, is audited with the totals and tells the reviewers", async () => {
    await saveVersion("Para excluir");
    const id = (await db.collection(FORECAST_VERSIONS).findOne({}))!._id.toHexString();
    signIn(PREPARER);
    expect(await deleteVersionOf(id, "não quero")).toEqual({ status: 403, location: null });
    signIn(ADMIN);
    expect(await deleteVersionOf(id, "  ")).toEqual({ status: 400, body: { error: versionTexts.reasonRequired } });
    expect(await deleteVersionOf(new ObjectId().toHexString(), "x")).toEqual({
      status: 404,
      body: { error: versionTexts.notFound },
    });
    expect(await deleteVersionOf(id, "Versão de teste")).toMatchObject({ status: 302 });
    expect(await db.collection(FORECAST_VERSIONS).countDocuments()).toBe(0);
    expect(await db.collection(FORECAST_VERSION_ROWS).countDocuments()).toBe(0);
    const audit = await db.collection(AUDIT_LOG).findOne({ "details.action": "versionDeleted" });
    expect(audit).toMatchObject({ actor: { email: ADMIN.email }, details: { reason: "Versão de teste", rf: RF } });
    expect(typeof audit?.details.total).toBe("number");
    expect((await db.collection(NOTICES).find({ kind: "forecast.versionDeleted" }).toArray()).map((n) => n.to)).toEqual(
      [REVIEWER.email],
    );
  });
});

describe("approval keeps the approved figures", () => {
  const cycle = (intent: string, comment = "") =>
    answer(
      reviewAction({
        // A submission as its dialog sends it, confirmed.
        request: post(reviewPath(RF, MARKETING), { intent, comment, confirm: "1" }),
        params: { rf: RF, cost_center_concat: MARKETING },
        context: {} as never,
      }),
    );
  const editMonth = new Date(`${monthKey(calendar.editMonth)}-01T00:00:00Z`);
  const cell = async () =>
    (await db.collection(FORECAST).findOne({
      rf: RF,
      cost_center_concat: MARKETING,
      account_concat: ACCOUNTS[0].account,
      data_ref: editMonth,
    }))!;

  it("saves the cost centre's figures at approval; a reopen and new edits leave that version as approved", async () => {
    signIn(PREPARER);
    expect(await cycle("submit")).toMatchObject({ status: 302 });
    signIn(REVIEWER);
    expect(await cycle("approve")).toMatchObject({ status: 302 });
    const approved = await db.collection(FORECAST_VERSIONS).findOne({ kind: "approval" });
    expect(approved).toMatchObject({
      rf: RF,
      cost_center_concat: MARKETING,
      cost_centers: 1,
      created_by: REVIEWER.email,
    });
    const approvedFigure = (await cell()).forecast as number;
    const before = await dumpVersions();

    signIn(ADMIN);
    expect(await cycle("reopen", "Ajuste pedido pela diretoria")).toMatchObject({ status: 302 });
    signIn(PREPARER);
    const { saveForecastCells } = await import("~/models/forecast.server");
    expect(
      await saveForecastCells(
        RF,
        MARKETING,
        [{ account: ACCOUNTS[0].account, month: editMonth, old: approvedFigure, value: 1 }],
        PREPARER,
        new Date(),
      ),
    ).toMatchObject({ kind: "saved", count: 1 });
    expect(await dumpVersions()).toEqual(before);

    signIn(ADMIN);
    const id = approved!._id.toHexString();
    const key = `l|${MARKETING}|${ACCOUNTS[0].account}`;
    const month = Number(monthKey(calendar.editMonth).slice(5)) - 1;
    const opened = (await consolidatedRows(`nivel=3&ver=v:${id}`)).find((r) => r.key === key)!;
    expect(opened.a[month]).toBe(approvedFigure);
    const live = (await consolidatedRows(`nivel=3&vs=v:${id}`)).find((r) => r.key === key)!;
    expect([live.a[month], live.b[month]]).toEqual([1, approvedFigure]);
  });
});

describe("the closing version", () => {
  it("is saved once when the RF's edit month has ended, by the scheduled task, and tells the reviewers", async () => {
    expect(SCHEDULED_TASKS.map((t) => t.name)).toContain("forecast-closing-version");
    const only = SCHEDULED_TASKS.filter((t) => t.name === "forecast-closing-version");
    // Still in the edit month: nothing.
    await runDueTasks(new Date("2027-02-20T12:00:00Z"), only);
    expect(await db.collection(FORECAST_VERSIONS).countDocuments()).toBe(0);
    setToday("2027-03-01");
    await db.collection("scheduled_tasks").deleteMany({});
    await runDueTasks(new Date("2027-03-01T12:00:00Z"), only);
    await db.collection("scheduled_tasks").deleteMany({});
    await runDueTasks(new Date("2027-03-02T12:00:00Z"), only);
    const closing = await db.collection(FORECAST_VERSIONS).find({}).toArray();
    expect(closing).toMatchObject([{ name: "RF2 2027 — fechamento", kind: "closing", closing_of: RF, created_by: "" }]);
    expect(await db.collection(NOTICES).countDocuments({ kind: "forecast.versionSaved" })).toBe(2);
    const audit = await db.collection(AUDIT_LOG).findOne({ "details.action": "versionSaved" });
    expect(audit).toMatchObject({ actor: { email: null }, details: { kind: "closing", rf: RF } });
  });
});
