import fs from "node:fs/promises";
import path from "node:path";
import { type Db, ObjectId } from "mongodb";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { useTempDataDir } from "#test/upload-fixtures";
import { documentSink } from "~/features/reports-and-financial/documents-store.server";
import { messages, reportsTexts as t } from "~/messages";
import { FILES } from "~/models/files.server";
import { FINANCIAL_REPORTS } from "~/models/financial.server";
import { listReportsPage, REPORTS, type ReportRecord } from "~/models/reports.server";
import { generateReports } from "~/seed/reports";
import { SeedObjects } from "~/seed/stored-objects";
import { seedContext, seedLedger } from "./test-helpers";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
const data = useTempDataDir();
let db: Db;
let reports: ReportRecord[];

const ORIGIN = "http://localhost:3000";
const post = (url: string, fields: Record<string, string>) =>
  new Request(`${ORIGIN}${url}`, { method: "POST", body: new URLSearchParams(fields), headers: { Origin: ORIGIN } });
const get = (url: string) => new Request(`${ORIGIN}${url}`);
const json = async (response: unknown) => (response as { data: unknown }).data ?? (await (response as Response).json());
const statusOf = (response: unknown) =>
  (response as { init?: { status?: number } }).init?.status ?? (response as Response).status;

beforeAll(async () => {
  db = await testDb.db();
  await seedLedger(db);
  // 45 reports: several pages, both origins, every format; their files in the temporary store.
  const objects = new SeedObjects();
  reports = generateReports({ ...seedContext(), scale: 0.075 }, ["ana@example.com"], objects);
  await db.collection(REPORTS).insertMany(reports);
  await objects.writeAll(await documentSink());
  currentUser.type = "USER SILVER";
});

describe("the report list", () => {
  it("pages 20 at a time by the last status change, newest first, within one origin", async () => {
    const automatico = reports
      .filter((r) => r.origin === "automatico")
      .sort((a, b) => b.statusChangeDate.getTime() - a.statusChangeDate.getTime());
    expect(automatico.length).toBeGreaterThan(20);
    const first = await listReportsPage({ name: "", origin: "automatico", from: null, to: null }, 1);
    expect(first.total).toBe(automatico.length);
    expect(first.items.map((i) => i.id)).toEqual(automatico.slice(0, 20).map((r) => String(r._id)));
    const last = await listReportsPage({ name: "", origin: "automatico", from: null, to: null }, 999);
    expect(last.page).toBe(Math.ceil(automatico.length / 20));
    expect(last.items.length).toBe(automatico.length - (last.page - 1) * 20);
  });

  it('lists both origins together under "todas" (the default stays automatico), from the URL, on an index', async () => {
    const { loader } = await import("~/routes/ij.report._index");
    const both = [...reports].sort(
      (a, b) =>
        b.statusChangeDate.getTime() - a.statusChangeDate.getTime() || String(b._id).localeCompare(String(a._id)),
    );
    const data = (await loader({ request: get("/ij/report?origin=todas"), params: {}, context: {} })) as {
      filters: { origin: string };
      list: { total: number; items: Array<{ id: string; originValue: string }> };
    };
    expect(data.filters.origin).toBe("todas");
    expect(data.list.total).toBe(reports.length);
    expect(data.list.items.map((i) => i.id)).toEqual(both.slice(0, 20).map((r) => String(r._id)));
    expect(new Set(data.list.items.map((i) => i.originValue))).toEqual(new Set(["automatico", "manual"]));
    const byDefault = (await loader({ request: get("/ij/report"), params: {}, context: {} })) as {
      filters: { origin: string };
    };
    expect(byDefault.filters.origin).toBe("automatico");
    const plan = await db.collection(REPORTS).find({}).sort({ statusChangeDate: -1, _id: -1 }).limit(20).explain();
    expect(JSON.stringify(plan.queryPlanner.winningPlan)).toContain("statusChangeDate_dateRef_nameKey");
  });

  it("filters the name case- and accent-insensitively as a partial match, and the competency range inclusively", async () => {
    const withAccent = reports.find((r) => /ç|ã|ó|é/i.test(r.name))!;
    const word = withAccent.name.split(" ").find((w) => /ç|ã|ó|é/i.test(w))!;
    const plain = word
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toUpperCase()
      .slice(1);
    const found = await listReportsPage({ name: plain, origin: withAccent.origin, from: null, to: null }, 1);
    expect(found.items.some((i) => i.id === String(withAccent._id))).toBe(true);
    expect(
      found.items.every((i) =>
        i.name
          .normalize("NFD")
          .replace(/[\u0300-\u036f]/g, "")
          .toUpperCase()
          .includes(plain),
      ),
    ).toBe(true);
    // regex characters are text
    expect((await listReportsPage({ name: ".*", origin: "automatico", from: null, to: null }, 1)).total).toBe(0);

    const month = reports[0].dateRef;
    const inMonth = reports.filter((r) => r.origin === reports[0].origin && r.dateRef.getTime() === month.getTime());
    const ranged = await listReportsPage({ name: "", origin: reports[0].origin, from: month, to: month }, 1);
    expect(ranged.total).toBe(inMonth.length);
  });
});

describe("report downloads and the viewer", () => {
  it("sends the stored bytes, byte for byte, through a signed link", async () => {
    const { action } = await import("~/routes/ij.report._index");
    const { loader: download } = await import("~/routes/download.$token");
    const report = reports[0];
    const response = (await action({
      request: post("/ij/report?index", {
        intent: "download",
        reportId: String(report._id),
        origin: report.origin,
        mode: "document",
      }),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(302);
    const link = response.headers.get("Location")!;
    expect(link).toMatch(/^\/download\//);
    const file = (await download({
      request: get(link),
      params: { token: link.split("/").pop() },
      context: {},
    })) as Response;
    expect(
      Buffer.from(await file.arrayBuffer()).equals(
        await fs.readFile(path.join(data.dir, "uploads", report.originalFile)),
      ),
    ).toBe(true);
  });

  it("refuses another origin's id, an id of another collection, a missing file and an empty form with the download message", async () => {
    const { action } = await import("~/routes/ij.report._index");
    const report = reports.find((r) => r.origin === "manual")!;
    const otherOrigin = await action({
      request: post("/ij/report?index", { intent: "download", reportId: String(report._id), origin: "automatico" }),
      params: {},
      context: {},
    });
    expect(statusOf(otherOrigin)).toBe(404);
    expect(await json(otherOrigin)).toEqual({ ok: false, error: messages.downloadFailed });
    const fileId = (
      await db.collection(FILES).insertOne({ originalName: "x.csv", originalFile: "2026/01/x.csv", bucket: "local" })
    ).insertedId;
    const foreign = await action({
      request: post("/ij/report?index", { intent: "download", reportId: String(fileId), origin: "automatico" }),
      params: {},
      context: {},
    });
    expect(statusOf(foreign)).toBe(404);
    const gone = reports.find((r) => r.origin === "automatico" && r.originalFile.endsWith(".xlsx"))!;
    const copy = { ...gone, _id: new ObjectId(), originalFile: "seed/reports/removed.xlsx" };
    await db.collection(REPORTS).insertOne(copy);
    const missing = await action({
      request: post("/ij/report?index", { intent: "download", reportId: String(copy._id), origin: "automatico" }),
      params: {},
      context: {},
    });
    expect(statusOf(missing)).toBe(404);
    expect(await json(missing)).toEqual({ ok: false, error: messages.downloadFailed });
    expect(statusOf(await action({ request: post("/ij/report?index", {}), params: {}, context: {} }))).toBe(400);
  });

  it("opens reports with an online copy in the viewer and answers 404 for the others", async () => {
    const { loader } = await import("~/routes/ij.report.$id.view");
    const xlsx = reports.find((r) => r.url && r.originalFile.endsWith(".xlsx"))!;
    const viewed = (await loader({
      request: get(`/ij/report/${xlsx._id}/view`),
      params: { id: String(xlsx._id) },
      context: {},
    })) as { content: { kind: string; sheets: { rows: string[][] }[] } };
    expect(viewed.content.kind).toBe("sheets");
    expect(viewed.content.sheets[0].rows.flat()).toContain("Indicador");
    const noUrl = reports.find((r) => !r.url)!;
    await expect(loader({ request: get("/"), params: { id: String(noUrl._id) }, context: {} })).rejects.toMatchObject({
      init: { status: 404 },
    });
    await expect(loader({ request: get("/"), params: { id: "not-an-id" }, context: {} })).rejects.toMatchObject({
      init: { status: 404 },
    });
  });
});

describe("financial statement requests: bad input gets its message and writes nothing", () => {
  it.each([
    [{ company: "1234", type: "MONTHLY", period: "2026-01" }, t.companyInvalid],
    [{ company: "2236", type: "WEEKLY", period: "2026-01" }, t.typeInvalid],
    [{ company: "2236", type: "MONTHLY", period: "1900-01" }, "Informe um período entre"],
    [{ company: "2236", type: "MONTHLY", period: "2999-01" }, "Informe um período entre"],
    [{ company: "2236", type: "MONTHLY", period: "2026-13" }, "Informe um período entre"],
    [{}, t.companyInvalid],
  ])("%j", async (fields, text) => {
    currentUser.type = "USER GOLD";
    const { action } = await import("~/routes/ij.demo_financial");
    const before = await db.collection(FINANCIAL_REPORTS).countDocuments();
    const response = await action({
      request: post("/ij/demo_financial", fields as Record<string, string>),
      params: {},
      context: {},
    });
    expect(statusOf(response)).toBe(400);
    expect(((await json(response)) as { error: string }).error).toContain(text);
    expect(await db.collection(FINANCIAL_REPORTS).countDocuments()).toBe(before);
  });
});

describe("cockpit, FP&A and fiscal actions refuse bad input", () => {
  it("cockpit: an unknown row, a comment over 255 characters, an empty form", async () => {
    currentUser.type = "USER GOLD";
    const { action } = await import("~/routes/ij.cockpit_preview");
    const base = { intent: "comment", unit: "2236", period: "2026-02" };
    const unknown = await action({
      request: post("/ij/cockpit_preview", { ...base, rowKey: "9.9.99", text: "x" }),
      params: {},
      context: {},
    });
    expect(await json(unknown)).toEqual({ ok: false, error: t.rowNotFound });
    const long = await action({
      request: post("/ij/cockpit_preview", { ...base, rowKey: "1.1.03.001", text: "x".repeat(256) }),
      params: {},
      context: {},
    });
    expect(await json(long)).toEqual({ ok: false, error: t.commentTooLong(255) });
    expect(statusOf(await action({ request: post("/ij/cockpit_preview", {}), params: {}, context: {} }))).toBe(400);
    expect(await db.collection("cockpit_comments").countDocuments()).toBe(0);
    const saved = (await action({
      request: post("/ij/cockpit_preview?unit=2236&period=2026-02", { ...base, rowKey: "1.1.03.001", text: " Ok " }),
      params: {},
      context: {},
    })) as Response;
    expect(saved.status).toBe(302);
    expect(
      await db.collection("cockpit_comments").findOne({}, { projection: { _id: 0, text: 1, rowKey: 1, user: 1 } }),
    ).toEqual({ text: "Ok", rowKey: "1.1.03.001", user: currentUser.email });
  });

  it("FP&A: a report reader cannot save; a bad number or account changes nothing", async () => {
    const { action } = await import("~/routes/ij.report_save");
    const fields = { intent: "save", company: "2236", period: "2026-02", account: "1.1.03.001", rf_n: "1.234,56" };
    currentUser.type = "USER SILVER";
    await expect(action({ request: post("/ij/report_save", fields), params: {}, context: {} })).rejects.toMatchObject({
      status: 403,
    });
    currentUser.type = "USER GOLD";
    const before = await db
      .collection("ledger")
      .findOne({ businessUnitID: "2236", account: "1.1.03.001", month: new Date("2026-02-01T00:00:00Z") });
    expect(
      statusOf(
        await action({ request: post("/ij/report_save", { ...fields, rf_n: "12abc" }), params: {}, context: {} }),
      ),
    ).toBe(400);
    expect(
      statusOf(
        await action({ request: post("/ij/report_save", { ...fields, account: "9.9.9" }), params: {}, context: {} }),
      ),
    ).toBe(404);
    expect(statusOf(await action({ request: post("/ij/report_save", {}), params: {}, context: {} }))).toBe(400);
    const after = await db
      .collection("ledger")
      .findOne({ businessUnitID: "2236", account: "1.1.03.001", month: new Date("2026-02-01T00:00:00Z") });
    expect(after).toEqual(before);
    const saved = (await action({
      request: post("/ij/report_save?company=2236&period=2026-02&edit=1.1.03.001", fields),
      params: {},
      context: {},
    })) as Response;
    expect(saved.headers.get("Location")).toBe("/ij/report_save?company=2236&period=2026-02&saved=1");
    expect(
      (
        await db
          .collection("ledger")
          .findOne({ businessUnitID: "2236", account: "1.1.03.001", month: new Date("2026-02-01T00:00:00Z") })
      )?.forecast,
    ).toBe(1234.56);
  });

  it("fiscal: an empty form and another unit's item", async () => {
    currentUser.type = "USER GOLD";
    const { action } = await import("~/routes/ij.fiscal");
    expect(statusOf(await action({ request: post("/ij/fiscal", {}), params: {}, context: {} }))).toBe(400);
    const item = (
      await db
        .collection("fiscal_items")
        .insertOne({ businessUnitID: "4313", worksheet: { bucket: "local", key: "seed/x.xlsx", name: "x.xlsx" } })
    ).insertedId;
    const other = await action({
      request: post("/ij/fiscal", { intent: "download", company: "2236", itemId: String(item), file: "worksheet" }),
      params: {},
      context: {},
    });
    expect(await json(other)).toEqual({ ok: false, error: messages.downloadFailed });
    expect(await db.collection("fiscal_observations").countDocuments()).toBe(0);
  });
});
