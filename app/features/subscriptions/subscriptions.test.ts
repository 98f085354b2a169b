import net from "node:net";
import { EJSON } from "bson";
import ExcelJS from "exceljs";
import { ObjectId } from "mongodb";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { dataAnswer, responseOf } from "#test/answers";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { getArgs, pageGet, postArgs, routeArgs } from "#test/requests";
import { captureLog } from "#test/s3/s3rver";
import { grantPermission } from "#test/upload-fixtures";
import { userMaker } from "#test/users";
import { resetConfigForTests } from "~/config.server";
import { applyIndexes } from "~/models/all-indexes.server";
import { MAIL_OUTBOX } from "~/models/auth-records.server";
import { DASHBOARDS, PANEL_TYPES } from "~/models/dashboards.server";
import { type FinancialReportRecord, recordStatements } from "~/models/financial.server";
import { HR_AUX } from "~/models/hr.server";
import { upsertReportEntries } from "~/models/reports.server";
import {
  addSubscription,
  claimNextSend,
  insertSends,
  isSubscribed,
  listSendsOf,
  listSubscriptions,
  queueSends,
  removeSubscription,
  SEND_MAX_ATTEMPTS,
  SUBSCRIPTION_SENDS,
  SUBSCRIPTIONS,
  sendBackoffMs,
} from "~/models/subscriptions.server";
import { startSession } from "~/platform/auth/session.server";
import { loadDashboardScreen } from "~/platform/dashboards/dashboards.server";
import * as demoFinancialRoute from "~/routes/ij.demo_financial";
import * as painelRoute from "~/routes/ij.painel.$id";
import * as reportListRoute from "~/routes/ij.report._index";
import * as route from "~/routes/user.subscriptions";
import { SCHEDULED_TASKS } from "~/scheduled-tasks.server";
import { readLatestMail } from "~/services/mail.server";
import { deliverSubscriptionSends } from "./dispatch.server";
import type { SubscriptionsPageData } from "./pages.server";
import { isoWeekOf, queueWeeklyDashboardSends } from "./weekly.server";

/**
 * Subscriptions on the embedded database, through /user/subscriptions as a signed-in user and the
 * publication hooks of the models: subscribe only to what one may open; a publication queues one send per
 * subscriber, the dispatcher mails it with the link; a subscriber who lost access gets nothing (logged "skipped");
 * a failing relay is retried with backoff; the weekly dashboard mail carries the figures that user sees, as XLSX.
 */

process.env.LOG_LEVEL = "warn";
process.env.APP_ORIGIN = "http://localhost:3000";
const testDb = useTestDatabase();
const makeUser = userMaker({ prefix: "assina", name: "Assinante", passwordHash: () => "scrypt$unused" });
// A recent instant (the send log and the outbox expire by TTL).
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (ms: number) => new Date(T0.getTime() + ms);
const pipeline = (stages: unknown[]) => EJSON.stringify(stages, { relaxed: false });

async function cookieOf(email: string): Promise<string> {
  const { headers } = await startSession(email);
  return (headers.get("Set-Cookie") ?? "").split(";")[0];
}

/** The action's answer: a redirect (a Response) or data with a status (refusals), as { status, headers, body }. */
async function post(cookie: string, fields: Record<string, string>) {
  const result = await responseOf(Promise.resolve(route.action(postArgs("/user/subscriptions", fields, cookie))));
  if (result instanceof Response) return { status: result.status, headers: result.headers, body: null };
  const answer = dataAnswer<{ error: string }>(result);
  return { status: answer.status, headers: new Headers(), body: answer.body };
}

async function outboxCount(to: string): Promise<number> {
  return (await testDb.db()).collection(MAIL_OUTBOX).countDocuments({ to });
}

function statementPair(unit: FinancialReportRecord["businessUnitID"], dateRef: Date): FinancialReportRecord[] {
  return (["DOCX", "XLSX"] as const).map((typeDocument) => ({
    _id: new ObjectId(),
    businessUnitID: unit,
    type: "MONTHLY",
    dateRef,
    typeDocument,
    url: `/local/statements/${unit}.${typeDocument.toLowerCase()}`,
    bucket: "local",
    originalFile: `statements/${unit}-${dateRef.toISOString()}.${typeDocument.toLowerCase()}`,
    originalName: `statement.${typeDocument.toLowerCase()}`,
    createdDate: T0,
    user: "gold@example.com",
  }));
}

let gold: string;
let silver: string;
let bronze: string;
let goldCookie: string;
let silverCookie: string;
let bronzeCookie: string;

beforeAll(async () => {
  resetConfigForTests();
  const db = await testDb.db();
  await applyIndexes(db);
  gold = await makeUser("USER GOLD");
  silver = await makeUser("USER SILVER");
  bronze = await makeUser("USER BRONZE");
  [goldCookie, silverCookie, bronzeCookie] = await Promise.all([cookieOf(gold), cookieOf(silver), cookieOf(bronze)]);
  await db.collection(HR_AUX).insertMany([
    { filial_nome: "Loja Centro", matricula: "1", vendas_adicionais: 100 },
    { filial_nome: "Loja Centro", matricula: "2", vendas_adicionais: 50 },
    { filial_nome: "Loja Norte", matricula: "3", vendas_adicionais: 999 },
  ]);
  await db.collection(DASHBOARDS).insertOne({
    dashboardId: "lojas",
    panelLabel: "Lojas",
    panelType: 1,
    painelId: 7,
    cliente: "journey",
    charts: [
      {
        id: "store-sales",
        title: "Vendas por filial",
        kind: "bar",
        collection: HR_AUX,
        labels: { label: "Filial", value: "Vendas" },
        pipeline: pipeline([
          { $group: { _id: "$filial_nome", value: { $sum: "$vendas_adicionais" } } },
          { $sort: { _id: 1 } },
          { $project: { _id: 0, label: "$_id", value: 1 } },
        ]),
      },
      {
        // Reaches every branch's rows through a $lookup: the screen does not run it for a store-limited viewer.
        id: "through-lookup",
        title: "Total via lookup",
        kind: "table",
        collection: "forecast",
        pipeline: pipeline([
          { $limit: 1 },
          {
            $lookup: {
              from: HR_AUX,
              pipeline: [{ $group: { _id: null, total: { $sum: "$vendas_adicionais" } } }],
              as: "hr",
            },
          },
          { $project: { _id: 0, total: { $first: "$hr.total" } } },
        ]),
      },
    ],
  });
  await db.collection("forecast").insertOne({ cost_center: "CC1", cost_center_concat: "CC1", value: 1 });
});

afterEach(() => {
  for (const key of ["MAIL", "SMTP_URL", "SMTP_CONNECTION_TIMEOUT_MS", "SMTP_SEND_TIMEOUT_MS"]) delete process.env[key];
  resetConfigForTests();
});

describe("/user/subscriptions: subscribe and unsubscribe", () => {
  it("subscribes to what the user may open, back to the page the form was on, and cancels", async () => {
    const done = await post(goldCookie, {
      intent: "subscribe",
      kind: "financial_statements",
      object: "4313",
      returnTo: "/ij/demo_financial?company=4313",
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/ij/demo_financial?company=4313");
    expect(await isSubscribed(gold, "financial_statements", "4313")).toBe(true);
    // Twice is one subscription.
    await post(goldCookie, { intent: "subscribe", kind: "financial_statements", object: "4313" });
    expect(await listSubscriptions(gold)).toHaveLength(1);

    const page = dataAnswer<SubscriptionsPageData>(await route.loader(getArgs("/user/subscriptions", goldCookie)));
    expect(page.body.items).toEqual([
      expect.objectContaining({
        kind: "financial_statements",
        object: "4313",
        label: "Demonstrativos financeiros da unidade 4313",
        link: "/ij/demo_financial?company=4313",
      }),
    ]);

    const cancelled = await post(goldCookie, { intent: "unsubscribe", kind: "financial_statements", object: "4313" });
    expect(cancelled.status).toBe(302);
    expect(cancelled.headers.get("Location")).toBe("/user/subscriptions");
    expect(await isSubscribed(gold, "financial_statements", "4313")).toBe(false);
  });

  it("refuses what the user may not open now, and bad or forged input, changing nothing", async () => {
    // Statements are USER GOLD's; reports are not USER BRONZE's; dashboards are not USER SILVER's.
    for (const [cookie, kind, object] of [
      [silverCookie, "financial_statements", "2236"],
      [bronzeCookie, "report_origin", "manual"],
      [silverCookie, "dashboard", "7"],
    ] as const) {
      const refused = await post(cookie, { intent: "subscribe", kind, object });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        error: "Você não tem acesso a este conteúdo, por isso não pode assiná-lo.",
      });
    }
    // Unknown things are refused too (a unit, an origin, a dashboard that does not exist).
    for (const [kind, object] of [
      ["financial_statements", "9999"],
      ["report_origin", "todas"],
      ["dashboard", "404"],
    ] as const)
      expect((await post(goldCookie, { intent: "subscribe", kind, object })).status).toBe(403);
    const forged: Record<string, string>[] = [
      { intent: "subscribe", kind: "everything", object: "1" },
      { intent: "drop", kind: "dashboard", object: "7" },
      { intent: "subscribe", kind: "dashboard", object: "7", user: gold },
    ];
    for (const fields of forged) {
      const bad = await post(goldCookie, fields);
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: "Pedido inválido. Recarregue a página e tente novamente." });
    }
    // Another site as the return path: back to the subscriptions page instead.
    const offsite = await post(goldCookie, {
      intent: "subscribe",
      kind: "report_origin",
      object: "manual",
      returnTo: "//evil.example/x",
    });
    expect(offsite.headers.get("Location")).toBe("/user/subscriptions");
    await post(goldCookie, { intent: "unsubscribe", kind: "report_origin", object: "manual" });
    expect(await listSubscriptions(silver)).toEqual([]);
    expect(await listSubscriptions(bronze)).toEqual([]);
    expect(await listSubscriptions(gold)).toEqual([]);
  });
});

describe("the subscribe forms on the pages", () => {
  type WithState = { subscription: { kind: string; object: string; subscribed: boolean } | null };
  const states = async (email: string, cookie: string) => ({
    reports: dataAnswer<WithState>(await reportListRoute.loader(getArgs("/ij/report?origin=manual", cookie))).body
      .subscription,
    both: dataAnswer<WithState>(await reportListRoute.loader(getArgs("/ij/report?origin=todas", cookie))).body
      .subscription,
    statements: dataAnswer<WithState>(
      await demoFinancialRoute.loader(getArgs("/ij/demo_financial?company=4313&type=MONTHLY&period=2026-01", cookie)),
    ).body.subscription,
    dashboard: dataAnswer<WithState>(await painelRoute.loader(routeArgs(pageGet("/ij/painel/7", cookie), { id: "7" })))
      .body.subscription,
    email,
  });

  it("tell each page whether the user follows what it shows, and follow it after subscribing", async () => {
    const user = await makeUser("USER GOLD");
    const cookie = await cookieOf(user);
    expect(await states(user, cookie)).toMatchObject({
      reports: { kind: "report_origin", object: "manual", subscribed: false },
      // Both origins listed: nothing to subscribe to.
      both: null,
      statements: { kind: "financial_statements", object: "4313", subscribed: false },
      dashboard: { kind: "dashboard", object: "7", subscribed: false },
    });
    for (const [kind, object] of [
      ["report_origin", "manual"],
      ["financial_statements", "4313"],
      ["dashboard", "7"],
    ] as const)
      expect((await post(cookie, { intent: "subscribe", kind, object, returnTo: "/ij/report" })).status).toBe(302);
    expect(await states(user, cookie)).toMatchObject({
      reports: { subscribed: true },
      statements: { subscribed: true },
      dashboard: { subscribed: true },
    });
    for (const s of await listSubscriptions(user)) await removeSubscription(user, s.kind, s.object);
  });
});

describe("publications", () => {
  it("mails each subscriber of a unit once when its statement is published, with the link", async () => {
    const user = await makeUser("USER GOLD");
    await addSubscription(user, "financial_statements", "2236", at(0));
    await addSubscription(user, "financial_statements", "4313", at(0));
    expect(await recordStatements(statementPair("2236", new Date(Date.UTC(2026, 2, 1))))).toBe(true);
    expect(await listSendsOf(user)).toEqual([expect.objectContaining({ status: "pending", object: "2236" })]);

    expect(await deliverSubscriptionSends(at(1_000))).toEqual({ sent: 1, skipped: 0, failed: 0 });
    const mail = await readLatestMail(user);
    expect(mail?.subject).toBe("Novo demonstrativo financeiro: unidade 2236, 03/2026");
    expect(mail?.text).toContain("O demonstrativo financeiro mensal da unidade 2236 de 03/2026 foi publicado.");
    expect(mail?.text).toContain(
      "Abrir no portal: http://localhost:3000/ij/demo_financial?company=2236&type=MONTHLY&period=2026-03",
    );
    expect(mail?.text).toContain("http://localhost:3000/user/subscriptions");
    expect(await listSendsOf(user)).toEqual([expect.objectContaining({ status: "sent", attempts: 1 })]);
    expect(await deliverSubscriptionSends(at(60_000))).toEqual({ sent: 0, skipped: 0, failed: 0 });
    expect(await outboxCount(user)).toBe(1);
  });

  it("stops when the subscriber loses access: USER GOLD made USER SILVER gets nothing, logged as skipped", async () => {
    const user = await makeUser("USER GOLD");
    const cookie = await cookieOf(user);
    expect((await post(cookie, { intent: "subscribe", kind: "financial_statements", object: "4664" })).status).toBe(
      302,
    );
    await grantPermission(await testDb.db(), user, "USER SILVER");
    expect(await recordStatements(statementPair("4664", new Date(Date.UTC(2026, 3, 1))))).toBe(true);
    expect(await deliverSubscriptionSends(at(1_000))).toEqual({ sent: 0, skipped: 1, failed: 0 });
    expect(await outboxCount(user)).toBe(0);
    expect(await listSendsOf(user)).toEqual([
      expect.objectContaining({ status: "skipped", last_error: "rights", kind: "financial_statements" }),
    ]);
    const page = dataAnswer<SubscriptionsPageData>(await route.loader(getArgs("/user/subscriptions", cookie)));
    expect(page.body.sends[0]).toMatchObject({
      statusLabel: "Não enviado",
      detail: "Você não tem mais acesso a este conteúdo.",
    });
  });

  it("mails the subscribers of a report origin when a package publishes to it, not those of the other", async () => {
    const manual = await makeUser("USER SILVER");
    const automatic = await makeUser("USER SILVER");
    await addSubscription(manual, "report_origin", "manual", at(0));
    await addSubscription(automatic, "report_origin", "automatico", at(0));
    const entry = (name: string) => ({
      name,
      origin: "manual" as const,
      dateRef: new Date(Date.UTC(2026, 0, 1)),
      originalFile: `reports/${name}.pdf`,
      originalName: `${name}.pdf`,
      bucket: "local",
      url: null,
    });
    const sourceFileId = new ObjectId();
    await upsertReportEntries([entry("Vendas"), entry("Margens")], { user: gold, now: at(0), sourceFileId });
    // The same package applied again (a re-run) queues nothing new.
    await upsertReportEntries([entry("Vendas"), entry("Margens")], { user: gold, now: at(500), sourceFileId });
    expect(await deliverSubscriptionSends(at(1_000))).toEqual({ sent: 1, skipped: 0, failed: 0 });
    const mail = await readLatestMail(manual);
    expect(mail?.subject).toBe("Novos relatórios publicados (manual)");
    expect(mail?.text).toContain("Foram publicados 2 relatórios:\n- Vendas\n- Margens");
    expect(mail?.text).toContain("Abrir no portal: http://localhost:3000/ij/report?origin=manual");
    expect(await outboxCount(automatic)).toBe(0);
    expect(await listSendsOf(automatic)).toEqual([]);
  });

  it("sends nothing to a subscriber who unsubscribed after the send was queued", async () => {
    const user = await makeUser("USER GOLD");
    await addSubscription(user, "financial_statements", "9311", at(0));
    await recordStatements(statementPair("9311", new Date(Date.UTC(2026, 4, 1))));
    await post(await cookieOf(user), { intent: "unsubscribe", kind: "financial_statements", object: "9311" });
    expect(await deliverSubscriptionSends(at(1_000))).toEqual({ sent: 0, skipped: 1, failed: 0 });
    expect(await listSendsOf(user)).toEqual([
      expect.objectContaining({ status: "skipped", last_error: "unsubscribed" }),
    ]);
  });
});

describe("a failing send", () => {
  it("is retried with exponential backoff and sent once the relay answers", async () => {
    const user = await makeUser("USER GOLD");
    await addSubscription(user, "financial_statements", "5454", at(0));
    await recordStatements(statementPair("5454", new Date(Date.UTC(2026, 5, 1))));
    // A closed port: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer();
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    process.env.MAIL = "smtp";
    process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
    process.env.SMTP_CONNECTION_TIMEOUT_MS = "500";
    process.env.SMTP_SEND_TIMEOUT_MS = "500";
    resetConfigForTests();
    const first = await captureLog(() => deliverSubscriptionSends(at(1_000)));
    expect(first.result).toEqual({ sent: 0, skipped: 0, failed: 1 });
    // Each attempt is logged, with when the next one is due.
    expect(first.lines.find((l) => l.msg === "subscription mail attempt failed")).toMatchObject({
      component: "subscription-mail",
      to: user,
      kind: "financial_statements",
      attempt: 1,
      nextAttemptAt: new Date(at(1_000).getTime() + sendBackoffMs(1)).toISOString(),
    });
    const [failed] = await listSendsOf(user);
    expect(failed).toMatchObject({ status: "pending", attempts: 1 });
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.next_attempt_at.getTime()).toBe(at(1_000).getTime() + sendBackoffMs(1));
    // Not before its backoff…
    expect(await deliverSubscriptionSends(at(30_000))).toEqual({ sent: 0, skipped: 0, failed: 0 });
    // …the second failure waits twice as long.
    expect((await captureLog(() => deliverSubscriptionSends(at(61_000)))).result).toEqual({
      sent: 0,
      skipped: 0,
      failed: 1,
    });
    const [again] = await listSendsOf(user);
    expect(again.next_attempt_at.getTime()).toBe(at(61_000).getTime() + sendBackoffMs(2));
    expect(sendBackoffMs(2)).toBe(2 * sendBackoffMs(1));

    for (const key of ["MAIL", "SMTP_URL"]) delete process.env[key];
    resetConfigForTests();
    expect(await deliverSubscriptionSends(at(61_000 + sendBackoffMs(2)))).toEqual({ sent: 1, skipped: 0, failed: 0 });
    expect(await listSendsOf(user)).toEqual([expect.objectContaining({ status: "sent", attempts: 3 })]);
    expect((await readLatestMail(user))?.subject).toBe("Novo demonstrativo financeiro: unidade 5454, 06/2026");
    expect(SEND_MAX_ATTEMPTS).toBeGreaterThanOrEqual(5);
  });
});

describe("the weekly dashboard e-mail", () => {
  async function attachmentRows(to: string, sheet = 0): Promise<unknown[][]> {
    const mail = await readLatestMail(to);
    expect(mail?.attachments).toHaveLength(1);
    const attachment = mail!.attachments![0] as unknown as { filename: string; content: { buffer: Uint8Array } };
    expect(attachment.filename).toMatch(/^painel-7-\d{4}-W\d{2}\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(Buffer.from(attachment.content.buffer) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[sheet].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return rows;
  }

  it("attaches the figures that subscriber sees (a store-limited HR viewer, only their branches), once a week", async () => {
    const db = await testDb.db();
    const centro = await makeUser("USER GOLD");
    const todas = await makeUser("USER GOLD");
    // The forecast row the lookup chart starts from is one `todas` prepares (the forecast's read rule).
    await db
      .collection("forecast_preparers")
      .insertOne({ cost_center_concat: "CC1", user: todas, assigned_at: new Date(), assigned_by: "test" });
    await grantPermission(db, centro, "USER GOLD", ["Loja Centro"]);
    for (const email of [centro, todas])
      expect((await post(await cookieOf(email), { intent: "subscribe", kind: "dashboard", object: "7" })).status).toBe(
        302,
      );

    expect(await queueWeeklyDashboardSends(at(0))).toBe(2);
    // Within the same ISO week, nothing new.
    expect(await queueWeeklyDashboardSends(at(60_000))).toBe(0);
    expect(await deliverSubscriptionSends(at(1_000))).toEqual({ sent: 2, skipped: 0, failed: 0 });
    expect(await deliverSubscriptionSends(at(120_000))).toEqual({ sent: 0, skipped: 0, failed: 0 });

    const mail = await readLatestMail(centro);
    expect(mail?.subject).toBe(`Painel Lojas: números da semana ${isoWeekOf(at(0))}`);
    expect(mail?.text).toContain("Abrir no portal: http://localhost:3000/ij/painel/7");

    // The same figures as the dashboard screen computes for each of them.
    for (const [email, expected] of [
      [centro, [["Loja Centro", 150]]],
      [
        todas,
        [
          ["Loja Centro", 150],
          ["Loja Norte", 999],
        ],
      ],
    ] as const) {
      const screen = await loadDashboardScreen(
        { email, name: "", type: "USER GOLD", sessionId: "" },
        "7",
        PANEL_TYPES.intelligentJourney,
      );
      const charts = screen.view.provider === "native" ? screen.view.charts : [];
      const fromScreen = charts[0].rows.map((r) => [r.label, r.value]);
      expect(fromScreen).toEqual(expected);
      expect(await attachmentRows(email)).toEqual([["Vendas por filial"], ["Filial", "Vendas"], ...fromScreen]);
    }
    // The chart that cannot be limited to Loja Centro: its message only, no figure of another branch.
    expect(await attachmentRows(centro, 1)).toEqual([
      ["Total via lookup"],
      ["Gráfico não disponível: Este gráfico reúne dados de filiais fora do seu acesso e não é exibido para você."],
    ]);
    expect(await attachmentRows(todas, 1)).toEqual([["Total via lookup"], ["total"], [1149]]);

    // The next week queues again; a subscriber who lost the dashboards' rights is skipped, for rights.
    await grantPermission(db, todas, "USER SILVER");
    const nextWeek = at(7 * 24 * 3600_000);
    expect(await queueWeeklyDashboardSends(nextWeek)).toBe(2);
    expect(await deliverSubscriptionSends(nextWeek)).toEqual({ sent: 1, skipped: 1, failed: 0 });
    expect((await listSendsOf(todas))[0]).toMatchObject({ status: "skipped", last_error: "rights" });
    expect(await outboxCount(todas)).toBe(1);
  });

  it("runs as scheduled tasks of the worker", () => {
    const names = SCHEDULED_TASKS.map((t) => t.name);
    expect(names).toContain("subscription-mail");
    expect(names).toContain("subscription-weekly-dashboards");
    expect(isoWeekOf(new Date(Date.UTC(2026, 0, 1)))).toBe("2026-W01");
    expect(isoWeekOf(new Date(Date.UTC(2027, 0, 1)))).toBe("2026-W53");
  });
});

describe("the queries", () => {
  it("read subscriptions and sends through indexes", async () => {
    const db = await testDb.db();
    await db.collection(SUBSCRIPTIONS).insertMany(
      Array.from({ length: 1_500 }, (_, n) => ({
        user: `bulk${n % 300}@example.com`,
        kind: "financial_statements",
        object: `U${n}`,
        created_at: at(n),
      })),
    );
    await insertSends(
      Array.from({ length: 1_500 }, (_, n) => ({
        user: `bulk${n % 300}@example.com`,
        kind: "financial_statements" as const,
        object: `U${n}`,
        key: `bulk:${n}`,
        event: { type: "weekly" as const, week: "2026-W01" },
      })),
      at(10 * 24 * 3600_000),
    );
    const [mine, log, queued, claimed] = await expectIndexedQueries(
      db,
      async () =>
        [
          await listSubscriptions("bulk7@example.com"),
          await listSendsOf("bulk7@example.com"),
          await queueSends("financial_statements", "U7", "plan-check", { type: "weekly", week: "2026-W02" }, at(0)),
          await claimNextSend(at(0), 60_000),
        ] as const,
    );
    expect(mine).toHaveLength(5);
    expect(log).toHaveLength(5);
    expect(queued).toBe(1);
    expect(claimed?.key).toBe("plan-check|bulk7@example.com");
    await db.collection(SUBSCRIPTION_SENDS).deleteMany({ key: /^(bulk:|plan-check)/ });
    await db.collection(SUBSCRIPTIONS).deleteMany({ user: /^bulk/ });
  });
});
