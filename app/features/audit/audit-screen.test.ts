import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import { dataAnswer, thrownResponse as thrown } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { getArgs } from "#test/requests";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { auditTexts } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG, type AuditEntry, appendAuditEntry } from "~/models/audit.server";
import { buildNavigation } from "~/navigation";
import { startSession } from "~/platform/auth/session.server";
import * as auditPage from "~/routes/user.audit";
import * as auditExportRoute from "~/routes/user.audit_.export";
import { portalTimeZone } from "~/shared/dates";
import type { AuditScreenData } from "./list.server";

/** /user/audit and its export, as SYSTEM ADMIN and as everyone else. */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const makeUser = userMaker({ prefix: "scr", name: "Tela", password: "Journey#2024" });

let adminCookie = "";
let admin = "";

async function cookieOf(email: string): Promise<string> {
  const { headers } = await startSession(email);
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

beforeAll(async () => {
  resetConfigForTests();
  await applyIndexes(await testDb.db());
  admin = await makeUser("SYSTEM ADMIN");
  adminCookie = await cookieOf(admin);
  // 120 entries on 2026-03-10 (São Paulo), then a few refusals and a dataset export on 2026-03-12.
  for (let i = 0; i < 120; i++) {
    await appendAuditEntry(
      {
        actor: { email: `u${i % 3}@example.com`, name: null, type: "USER GOLD" },
        event: "signIn",
        outcome: "ok",
      },
      new Date(Date.parse("2026-03-10T12:00:00Z") + i * 1000),
    );
  }
  await appendAuditEntry(
    {
      actor: { email: "u1@example.com", type: "USER GOLD" },
      event: "accessRefused",
      object: { kind: "screen", id: "routes/user.config", label: "/user/config" },
      outcome: "refused",
      details: { reason: "notAllowed" },
    },
    new Date("2026-03-12T13:00:00Z"),
  );
  await appendAuditEntry(
    {
      actor: { email: "u2@example.com", type: "USER GOLD" },
      event: "dataExported",
      object: { kind: "dataset", id: "planning" },
      dataset: "planning",
      outcome: "ok",
    },
    new Date("2026-03-12T14:00:00Z"),
  );
});

async function load(path: string, cookie = adminCookie) {
  return dataAnswer<AuditScreenData>(await auditPage.loader(getArgs(path, cookie)));
}

describe("/user/audit", () => {
  it("is SYSTEM ADMIN's (in its menu); anyone else gets 403, which is itself written", async () => {
    const gold = await makeUser("USER GOLD");
    for (const type of ["USER ADMIN", "USER PERMISS", "USER GOLD", "USER SILVER"] as const) {
      const email = type === "USER GOLD" ? gold : await makeUser(type);
      const response = await thrown(auditPage.loader(getArgs("/user/audit", await cookieOf(email))));
      expect(response.status).toBe(403);
      const exported = await thrown(
        auditExportRoute.loader(getArgs("/user/audit/export?formato=csv", await cookieOf(email))),
      );
      expect(exported.status).toBe(403);
    }
    const refusals = await (await testDb.db())
      .collection<AuditEntry>(AUDIT_LOG)
      .find({ event: "accessRefused", "actor.email": gold })
      .sort({ n: 1 })
      .toArray();
    expect(refusals.map((e) => e.object?.id)).toEqual(["routes/user.audit", "routes/user.audit_.export"]);
    expect(refusals[0]).toMatchObject({ outcome: "refused", actor: { type: "USER GOLD" } });
    const context = { features: {} as never, hrEditorTypes: [] };
    expect(buildNavigation("SYSTEM ADMIN", [], context).menu.map((m) => m.to)).toContain("/user/audit");
    expect(buildNavigation("USER GOLD", [], context).menu.map((m) => m.to)).not.toContain("/user/audit");
  });

  it("shows the newest entries first, 50 a page, with links to older and newer pages", async () => {
    const first = await load("/user/audit?evento=signIn");
    expect(first.status).toBe(200);
    expect(first.body.rows).toHaveLength(50);
    expect(first.body.newerThan).toBeNull();
    expect(first.body.olderThan).not.toBeNull();
    const second = await load(`/user/audit?evento=signIn&antes=${first.body.olderThan}`);
    expect(second.body.rows[0].n).toBe(first.body.rows[49].n - 1);
    expect(second.body.newerThan).toBe(second.body.rows[0].n);
    const third = await load(`/user/audit?evento=signIn&antes=${second.body.olderThan}`);
    expect(third.body.rows).toHaveLength(20);
    expect(third.body.olderThan).toBeNull();
  });

  it("filters by period (the portal's days), user, event type, dataset and outcome, kept in the URL", async () => {
    const refused = await load("/user/audit?resultado=refused&usuario=U1@example.com");
    expect(refused.body.rows.map((r) => [r.event, r.who, r.object])).toEqual([
      [auditTexts.eventLabels.accessRefused, "u1@example.com", "Tela: routes/user.config (/user/config)"],
    ]);
    expect(refused.body.values).toMatchObject({ outcome: "refused", user: "u1@example.com" });
    const dataset = await load("/user/audit?base=planning");
    expect(dataset.body.rows.map((r) => r.event)).toEqual([auditTexts.eventLabels.dataExported]);
    const period = await load("/user/audit?de=2026-03-12&ate=2026-03-12");
    expect(period.body.rows).toHaveLength(2);
    const before = await load("/user/audit?de=2026-03-01&ate=2026-03-11&evento=accessRefused");
    expect(before.body.rows).toEqual([]);
  });

  it("refuses malformed filters with a message and ignores them (400), never passing them on", async () => {
    const bad = await load("/user/audit?evento=%24where&de=2026-13-40&usuario[%24ne]=x&antes=-1");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(auditTexts.invalidFilters);
    expect(bad.body.values).toMatchObject({ event: "", from: "" });
    expect(bad.body.rows.length).toBeGreaterThan(0);
    const reversed = await load("/user/audit?de=2026-03-12&ate=2026-03-01");
    expect(reversed.body.error).toBe(auditTexts.invalidPeriod);
  });

  it("opens one entry in detail", async () => {
    const list = await load("/user/audit?resultado=refused&usuario=u1@example.com");
    const n = list.body.rows[0].n;
    const detail = await load(`/user/audit?resultado=refused&entrada=${n}`);
    expect(detail.body.detail).toMatchObject({ n, who: "u1@example.com", actorType: "USER GOLD" });
    // The details as a table of named values, not JSON.
    expect(detail.body.detail!.details).toEqual([{ label: "reason", value: "notAllowed", href: null }]);
    expect(detail.body.detail!.hash).toMatch(/^[0-9a-f]{64}$/);
    // When, in the portal's time zone and named so, as every screen shows a moment (no UTC instant beside it).
    expect(detail.body.detail!.whenWithZone).toBe(`${detail.body.detail!.when} (${portalTimeZone()})`);
    expect(detail.body.detail).not.toHaveProperty("atIso");
    expect((await load("/user/audit?entrada=999999")).body.detailMissing).toBe(true);
  });
});

describe("who changed the forecast of a cost centre: one filter", () => {
  const marketing = "CC1001 - Marketing";
  const sales = "CC1002 - Vendas";
  beforeAll(async () => {
    const db = await testDb.db();
    await db.collection("forecast").insertMany([
      { rf: "RF3 2026", cost_center_concat: marketing, account: "A1", month: "2027-01", value: 1 },
      { rf: "RF3 2026", cost_center_concat: sales, account: "A1", month: "2027-01", value: 1 },
    ]);
    const save = (who: string, cc: string, at: string) =>
      appendAuditEntry(
        {
          actor: { email: who, type: "USER GOLD" },
          event: "dataEdited",
          object: { kind: "costCentre", id: cc, label: `RF3 2026 · ${cc}` },
          dataset: "forecast",
          outcome: "ok",
          details: {
            rows: 2,
            link: `/ij/report_preview_edit_schneider/RF3%202026/${encodeURIComponent(cc)}`,
            rf: "RF3 2026",
          },
        },
        new Date(at),
      );
    await save("paula@example.com", marketing, "2026-04-02T13:00:00Z");
    await save("rui@example.com", sales, "2026-04-02T14:00:00Z");
    for (const [action, at] of [
      ["submit", "2026-04-02T15:00:00Z"],
      ["approve", "2026-04-02T16:00:00Z"],
    ] as const)
      await appendAuditEntry(
        {
          actor: { email: "rev@example.com", type: "USER GOLD" },
          event: "decision",
          object: { kind: "costCentre", id: marketing, label: `${marketing} · RF3 2026` },
          dataset: "forecast",
          outcome: "ok",
          details: { rf: "RF3 2026", action },
        },
        new Date(at),
      );
  });

  it("filters by the object an entry is about: a cost centre by its code alone, a file, a user", async () => {
    const byCode = await load("/user/audit?objeto=cc1001&de=2026-04-02&ate=2026-04-02");
    expect(byCode.status).toBe(200);
    expect(byCode.body.values).toMatchObject({ object: marketing });
    expect(byCode.body.rows.map((r) => [r.who, r.event])).toEqual([
      ["rev@example.com", "Decisão: Aprovou"],
      ["rev@example.com", "Decisão: Enviou"],
      ["paula@example.com", auditTexts.eventLabels.dataEdited],
    ]);
    // Each row's object filters the list to it.
    expect(byCode.body.rows[2].objectFilter).toBe(`/user/audit?objeto=${encodeURIComponent(marketing)}`);
    const edits = await load(`/user/audit?objeto=${encodeURIComponent(sales)}&evento=dataEdited`);
    expect(edits.body.rows.map((r) => r.who)).toEqual(["rui@example.com"]);
    // Not a cost centre: the text as typed (a user, a file's id).
    expect((await load("/user/audit?objeto=routes%2Fuser.config")).body.rows.map((r) => r.who)).toEqual([
      "u1@example.com",
    ]);
    expect((await load("/user/audit?objeto=CC9")).body.rows).toEqual([]);
  });

  it("filters the cycle's decisions by action, and names the action in the list", async () => {
    const approved = await load("/user/audit?acao=approve");
    expect(approved.body.rows.map((r) => r.event)).toEqual(["Decisão: Aprovou"]);
    expect(approved.body.values).toMatchObject({ action: "approve" });
    const bad = await load("/user/audit?acao=%24ne");
    expect(bad.status).toBe(400);
    expect(bad.body.values).toMatchObject({ action: "" });
  });

  it("shows an edit's details as named values, with a link to the cells' histories", async () => {
    const list = await load(`/user/audit?objeto=${encodeURIComponent(sales)}`);
    const detail = await load(`/user/audit?entrada=${list.body.rows[0].n}`);
    expect(detail.body.detail!.details).toEqual([
      { label: "Linhas", value: "2", href: null },
      {
        label: "Histórico das células",
        value: "Abrir",
        href: `/ij/report_preview_edit_schneider/RF3%202026/${encodeURIComponent(sales)}`,
      },
      { label: "RF", value: "RF3 2026", href: null },
    ]);
  });
});

describe("an edit's cells and every action, in words", () => {
  const review = `/ij/report_preview_edit_schneider/RF2%202027/${encodeURIComponent("CC1003 - Compras")}`;
  const cells = [
    { account: "4101001 - Salários e Ordenados", month: "2027-03", old: 10000, new: 12500 },
    { account: "4201001 - Aluguel de Imóveis", month: "2027-11", old: 250.5, new: 0 },
  ];
  beforeAll(async () => {
    await appendAuditEntry(
      {
        actor: { email: "ana@example.com", type: "USER GOLD" },
        event: "dataEdited",
        object: { kind: "costCentre", id: "CC1003 - Compras", label: "RF2 2027 · CC1003 - Compras" },
        dataset: "forecast",
        outcome: "ok",
        details: { rows: 5, link: review, rf: "RF2 2027", cells, moreCells: 3 },
      },
      new Date("2026-05-04T13:00:00Z"),
    );
    await appendAuditEntry(
      {
        actor: { email: "ana@example.com", type: "SYSTEM ADMIN" },
        event: "dataEdited",
        object: { kind: "costCentre", id: "CC1003 - Compras", label: "CC1003 - Compras" },
        dataset: "forecast_preparers",
        outcome: "ok",
        details: { action: "preparerAdded", user: "rui@example.com" },
      },
      new Date("2026-05-04T14:00:00Z"),
    );
  });

  it("names an action in words in the list and the detail", async () => {
    const list = await load("/user/audit?de=2026-05-04&ate=2026-05-04");
    expect(list.body.rows.map((r) => r.event)).toEqual([
      `${auditTexts.eventLabels.dataEdited}: Preparador adicionado`,
      auditTexts.eventLabels.dataEdited,
    ]);
    const detail = await load(`/user/audit?entrada=${list.body.rows[0].n}`);
    expect(detail.body.detail!.details).toEqual([
      { label: "Ação", value: "Preparador adicionado", href: null },
      { label: "Usuário", value: "rui@example.com", href: null },
    ]);
  });

  it("lists each changed cell from what to what, each opening the grid at the cell's history", async () => {
    const list = await load("/user/audit?de=2026-05-04&ate=2026-05-04&evento=dataEdited");
    const detail = await load(`/user/audit?entrada=${list.body.rows[1].n}`);
    const history = (account: string, month: string) =>
      `${review}?celula=${encodeURIComponent(`${account}:${month}`)}&historico=1#celula`;
    expect(detail.body.detail!.details).toEqual([
      { label: "Linhas", value: "5", href: null },
      // The screen opens at the first changed cell's history.
      { label: "Histórico das células", value: "Abrir", href: history(cells[0].account, "2027-03") },
      { label: "RF", value: "RF2 2027", href: null },
      {
        label: "Alteração",
        value: "Conta 4101001 — Salários e Ordenados, mar/27: 10.000,00 → 12.500,00",
        href: history(cells[0].account, "2027-03"),
        link: "Abrir",
      },
      {
        label: "Alteração",
        value: "Conta 4201001 — Aluguel de Imóveis, nov/27: 250,50 → 0,00",
        href: history(cells[1].account, "2027-11"),
        link: "Abrir",
      },
      { label: "Alteração", value: "e mais 3 células", href: null },
    ]);
  });

  it("exports the same words", async () => {
    const response = (await auditExportRoute.loader(
      getArgs("/user/audit/export?formato=csv&de=2026-05-04&ate=2026-05-04", adminCookie),
    )) as Response;
    const text = await response.text();
    expect(text).toContain("Dados editados: Preparador adicionado");
    expect(text).toContain("Ação: Preparador adicionado");
    expect(text).toContain("Alteração: Conta 4101001 — Salários e Ordenados, mar/27: 10.000,00 → 12.500,00");
    expect(text).toContain("Alteração: e mais 3 células");
  });
});

describe("/user/audit/export", () => {
  it("exports the filtered entries as CSV, and the export is itself audited first", async () => {
    const response = (await auditExportRoute.loader(
      getArgs("/user/audit/export?formato=csv&resultado=refused&usuario=u1@example.com", adminCookie),
    )) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/text\/csv/);
    const text = await response.text();
    const lines = text.trim().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain("routes/user.config");
    const exported = await (await testDb.db())
      .collection<AuditEntry>(AUDIT_LOG)
      .findOne({ event: "auditExported" }, { sort: { n: -1 } });
    expect(exported).toMatchObject({
      actor: { email: admin, type: "SYSTEM ADMIN" },
      outcome: "ok",
      details: { format: "csv", filters: { outcome: "refused", user: "u1@example.com" } },
    });
  });

  it("exports as XLSX with the same filters", async () => {
    const response = (await auditExportRoute.loader(
      getArgs("/user/audit/export?formato=xlsx&base=planning", adminCookie),
    )) as Response;
    expect(response.headers.get("Content-Type")).toMatch(/spreadsheetml/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
    const sheet = workbook.worksheets[0];
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).values).toContain("planning");
    const count = await (await testDb.db()).collection(AUDIT_LOG).countDocuments({ event: "auditExported" });
    expect(count).toBe(3);
  });

  it("answers 400 to an unknown format and exports nothing", async () => {
    const answer = await auditExportRoute.loader(getArgs("/user/audit/export?formato=pdf", adminCookie));
    expect(answer).toBeInstanceOf(Response);
    const response = answer as Response;
    expect({ status: response.status, body: await response.json() }).toEqual({
      status: 400,
      body: { error: auditTexts.exportBadFormat },
    });
  });
});

describe("an entry's moment, on the screen and in the export: the portal's zone, said once", () => {
  // 01:30 UTC on 01/07 is 22:30 on 30/06 in São Paulo: the entry is on 30/06 for the filter, the list and the file.
  beforeAll(async () => {
    await appendAuditEntry(
      {
        actor: { email: "token@example.com", type: "USER GOLD" },
        event: "tokenCreated",
        object: { kind: "token", id: "t1", label: "Relatórios" },
        outcome: "ok",
        details: { expiresAt: "2026-07-15T12:00:00.000Z", days: 14 },
      },
      new Date("2026-07-01T01:30:00Z"),
    );
  });

  it("the day filter is the portal's day, the detail names the moment once in its zone and dates its details", async () => {
    const list = await load("/user/audit?de=2026-06-30&ate=2026-06-30&evento=tokenCreated");
    expect(list.body.rows.map((r) => r.when)).toEqual(["30 jun 26 22:30:00"]);
    expect(list.body.rows[0]).not.toHaveProperty("day");
    const n = list.body.rows[0].n;
    const detail = (await load(`/user/audit?entrada=${n}`)).body.detail!;
    expect(detail.whenWithZone).toBe(`30 jun 26 22:30:00 (${portalTimeZone()})`);
    expect(detail.details).toContainEqual({ label: "expiresAt", value: "15 jul 26 09:00:00", href: null });
    expect(JSON.stringify(detail)).not.toMatch(/UTC|2026-07-01/);
  });

  it("exports the moment and the dates of the details as the screen shows them, the zone in the header, no UTC", async () => {
    const csv = await (
      (await auditExportRoute.loader(
        getArgs("/user/audit/export?formato=csv&de=2026-06-30&ate=2026-06-30&evento=tokenCreated", adminCookie),
      )) as Response
    ).text();
    const [header, line] = csv
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(header).toContain(`Quando (${portalTimeZone()})`);
    expect(header).not.toContain("UTC");
    expect(line).toContain(";30 jun 26 22:30:00;");
    expect(line).toContain("expiresAt: 15 jul 26 09:00:00");
    expect(line).not.toContain("2026-07-01");

    const response = (await auditExportRoute.loader(
      getArgs("/user/audit/export?formato=xlsx&de=2026-06-30&ate=2026-06-30&evento=tokenCreated", adminCookie),
    )) as Response;
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as never);
    const sheet = workbook.worksheets[0];
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    const when = headers.indexOf(`Quando (${portalTimeZone()})`) + 1;
    expect(when).toBeGreaterThan(0);
    expect(headers.filter((h) => String(h).includes("UTC"))).toEqual([]);
    expect(sheet.getRow(2).getCell(when).value).toBe("30 jun 26 22:30:00");
  });
});
