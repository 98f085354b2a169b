import ExcelJS from "exceljs";
import type { Db } from "mongodb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { AUDIT_LOG, forgetAuditHeads } from "~/models/audit.server";
import { FORECAST, FORECAST_HISTORY } from "~/models/forecast.server";
import { FORECAST_ROLLUPS } from "~/models/forecast-consolidated.server";
import { FORECAST_CYCLE, FORECAST_CYCLE_EVENTS, FORECAST_PREPARERS } from "~/models/forecast-cycle.server";
import { createVersion, FORECAST_VERSION_ROWS, FORECAST_VERSIONS } from "~/models/forecast-versions.server";
import { NOTICES } from "~/models/notices.server";
import { action as consolidatedAction } from "~/routes/ij.forecast_consolidado";
import { loader as consolidatedExcelLoader } from "~/routes/ij.forecast_consolidado.excel";
import { loader as versionsLoader } from "~/routes/ij.forecast_versoes";
import { loader as reviewLoader } from "~/routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat";
import {
  ADMIN,
  CENTRES,
  consolidatedPage,
  post,
  RF,
  signIn,
  url,
  useSeededForecast,
} from "../consolidated/write-paths.fixture";
import { reviewPath } from "../forecast-filter";
import { VERSIONS_PAGE_SIZE } from "./limits";
import { versionTexts } from "./texts";
import { keepApprovedFigures } from "./versions.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The versions' list as its users read it: the versions people saved and the edit months' closings first, newest
 * first; then the approvals, under their cost centre (each cost centre's newest first), each paged on the server; a
 * preparer sees only their cost centres' approvals; a cost centre's review offers its own approvals first. A
 * comparison (or a view) with an approval, which holds one cost centre, is of that cost centre only, on the screen
 * and in the export, and says so.
 */

const PREPARER = { email: "prep@example.com", name: "Paula Preparadora", type: "USER GOLD" as const };
const [MARKETING, SALES, LOGISTICS] = CENTRES.map((c) => c.cc);

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
    "files",
  ],
  onCleared: forgetAuditHeads,
  users: [PREPARER],
  preparer: { user: PREPARER.email, cc: MARKETING },
});
let db: Db;

beforeEach(() => {
  db = seeded.db;
});

const minutes = (n: number) => new Date(Date.now() + n * 60_000);

async function saveNamed(nome: string) {
  const answer = await responseOf(
    consolidatedAction({
      request: post("/ij/forecast_consolidado", { intent: "salvar", rf: RF, nome }),
      params: {},
      context: {} as never,
    }),
  );
  expect(answer.status).toBe(302);
}

const approve = async (cc: string, at: Date) => (await keepApprovedFigures(RF, cc, ADMIN, at))!._id.toHexString();

async function versionsPage(query = "") {
  const request = new Request(url(`/ij/forecast_versoes${query}`));
  return dataAnswer<BodyOf<typeof versionsLoader>>(await versionsLoader({ request, params: {}, context: {} as never }))
    .body;
}

describe("the versions' list", () => {
  it("puts the saved versions and closings first, newest first, then the approvals under their cost centre", async () => {
    await saveNamed("Antes do comitê");
    // Approvals newer and older than the saved versions: they come after them all the same.
    const salesOld = await approve(SALES, minutes(-30));
    const marketingOld = await approve(MARKETING, minutes(-20));
    const logistics = await approve(LOGISTICS, minutes(5));
    const marketingNew = await approve(MARKETING, minutes(10));
    await saveNamed("Depois do comitê");

    const list = await versionsPage();
    expect(list.rows.map((r) => [r.name, r.kind])).toEqual([
      ["Depois do comitê", "Salva"],
      ["Antes do comitê", "Salva"],
    ]);
    expect(list.total).toBe(2);
    expect(list.approvals.total).toBe(4);
    expect(list.approvals.rows.map((r) => [r.costCenter, r.id])).toEqual([
      [MARKETING, marketingNew],
      [MARKETING, marketingOld],
      [SALES, salesOld],
      [LOGISTICS, logistics],
    ]);
    expect(list.approvals.rows[0]).toMatchObject({
      name: versionTexts.approvalName(RF, MARKETING),
      kind: "Aprovação",
      rf: RF,
      reviewHref: `${reviewPath(RF, MARKETING)}?versao=${marketingNew}`,
    });
  });

  it("pages the approvals on the server, apart from the saved versions", async () => {
    await saveNamed("Única");
    const approvals = Array.from({ length: VERSIONS_PAGE_SIZE + 3 }, (_, i) => ({
      name: versionTexts.approvalName(RF, CENTRES[i % 3].cc),
      rf: RF,
      kind: "approval" as const,
      cost_center_concat: CENTRES[i % 3].cc,
      created_at: minutes(-i),
      created_by: ADMIN.email,
      created_by_name: ADMIN.name,
      total: i,
      cost_centers: 1,
    }));
    for (const header of approvals) await createVersion(header, []);
    const second = await versionsPage("?aprovacoes=2");
    expect(second.rows.map((r) => r.name)).toEqual(["Única"]);
    expect(second.approvals).toMatchObject({ page: 2, total: VERSIONS_PAGE_SIZE + 3 });
    expect(second.approvals.rows).toHaveLength(3);
    // The last cost centre's oldest approvals end the list.
    expect(second.approvals.rows.map((r) => r.costCenter)).toEqual([LOGISTICS, LOGISTICS, LOGISTICS]);
    expect(second.approvals.rows.map((r) => r.total)).toEqual([14, 17, 20]);
  });

  it("shows a preparer only the approvals of the cost centres they prepare", async () => {
    await saveNamed("Da empresa");
    const mine = await approve(MARKETING, minutes(1));
    await approve(SALES, minutes(2));
    signIn(PREPARER);
    const list = await versionsPage();
    expect(list.rows.map((r) => r.name)).toEqual(["Da empresa"]);
    expect(list.approvals.rows.map((r) => r.id)).toEqual([mine]);
    expect(list.approvals.total).toBe(1);
  });

  it("a cost centre's review offers its own approvals first, then the company's versions", async () => {
    await saveNamed("Da empresa");
    const mine = await approve(MARKETING, minutes(-5));
    await approve(SALES, minutes(3));
    const request = new Request(url(reviewPath(RF, MARKETING)));
    const body = dataAnswer<{ grid: { versionChoices?: { id: string; name: string }[] } }>(
      await reviewLoader({ request, params: { rf: RF, cost_center_concat: MARKETING }, context: {} as never }),
    ).body;
    const choices = body.grid.versionChoices ?? [];
    expect(choices.map((c) => c.id)[0]).toBe(mine);
    expect(choices[0].name).toContain(versionTexts.approvalName(RF, MARKETING));
    expect(choices.slice(1).map((c) => c.name)).toEqual(["Da empresa"]);
  });
});

describe("a comparison with an approval (one cost centre)", () => {
  async function exported(query: string): Promise<string[]> {
    const request = new Request(url(`/ij/forecast_consolidado/excel?rf=${encodeURIComponent(RF)}&${query}`));
    const response = (await consolidatedExcelLoader({ request, params: {}, context: {} as never })) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
    const labels: string[] = [];
    workbook.worksheets[0].eachRow((row, n) => {
      if (n > 1) labels.push(String(row.getCell(2).value ?? "").trim());
    });
    return labels;
  }

  it("compares that cost centre only, on the screen and in the export, and says so", async () => {
    const whole = await consolidatedPage("nivel=1");
    const marketingLive = whole.rows.find((r) => r.key === `c|${MARKETING}`)!.aTotal!;
    expect(whole.rows.find((r) => r.key === "total")!.aTotal).not.toBeCloseTo(marketingLive, 2);
    const id = await approve(MARKETING, minutes(0));
    const note = versionTexts.restrictedCompare([MARKETING]);
    expect(note).toBe(`Comparação restrita a ${MARKETING}, o único centro de custo desta versão.`);

    const compared = await consolidatedPage(`nivel=1&vs=v:${id}&cols=total`);
    const company = compared.rows.find((r) => r.key === "total")!;
    expect(company.aTotal).toBeCloseTo(marketingLive, 2);
    expect(company.bTotal).toBeCloseTo(marketingLive, 2);
    expect(compared.rows.filter((r) => r.key.startsWith("c|")).map((r) => r.key)).toEqual([`c|${MARKETING}`]);
    expect(compared.notices).toContain(note);
    // The reviewer still reads every cost centre: only the comparison is narrowed.
    expect(compared.scope).toBeNull();

    const labels = await exported(`nivel=1&vs=v:${id}&cols=total`);
    expect(labels).toContain(MARKETING);
    expect(labels.filter((l) => l === SALES || l === LOGISTICS)).toEqual([]);
    expect(labels).toContain(note);

    // Opened as the figures shown, likewise.
    const opened = await consolidatedPage(`nivel=1&ver=v:${id}`);
    expect(opened.rows.find((r) => r.key === "total")!.aTotal).toBeCloseTo(marketingLive, 2);
    expect(opened.notices).toContain(versionTexts.restrictedView([MARKETING]));
  });

  it("leaves a comparison with a version of every cost centre whole", async () => {
    await saveNamed("Empresa");
    const id = (await db.collection(FORECAST_VERSIONS).findOne({ kind: "manual" }))!._id.toHexString();
    const compared = await consolidatedPage(`nivel=1&vs=v:${id}&cols=total`);
    expect(compared.rows.filter((r) => r.key.startsWith("c|"))).toHaveLength(CENTRES.length);
    expect(compared.notices.filter((n) => n.startsWith("Comparação restrita"))).toEqual([]);
  });
});
