import { Readable } from "node:stream";
import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readXlsxRows } from "xlsx-reader";
import { type BodyOf, dataAnswer, responseOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { routeArgs } from "#test/requests";
import { applyIndexes } from "~/models/all-indexes.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { FORECAST } from "~/models/forecast.server";
import { FORECAST_CYCLE, FORECAST_PREPARERS, preparersOf } from "~/models/forecast-cycle.server";
import { FPA_RESPONSIBLES } from "~/models/fpa.server";
import { insertPermissionRecord } from "~/models/user-permissions.server";
import type { PermissionType } from "~/models/users.server";
import { action, loader } from "~/routes/ij.forecast_preparers";
import { action as templateAction, loader as templateLoader } from "~/routes/ij.forecast_preparers.modelo";
import { portalToday } from "~/shared/clock.server";
import { cellText } from "~/shared/excel/values";
import { scenarioOpenOn } from "../release-points";
import { preparersTexts as t } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * /ij/forecast_preparers and its template as an administrator sees them: the paged, filtered list; adding (only
 * portal users who may edit the forecast), removing (after a confirmation), the suggestion from the FP&A responsibles
 * and the template's round trip. Every refusal leaves the assignments as they were.
 */

const testDb = useTestDatabase();
let db: Db;
const ORIGIN = "http://localhost:3000";
const PATH = "/ij/forecast_preparers";
const MARKETING = "CC1001 - Marketing";
const RETAIL = "CC1002 - Vendas Varejo";
const GESTAO = "CC1003 - Gestão Fiscal";
/** 25 cost centres: the three above and CC2001…CC2022. */
const CENTERS = [
  MARKETING,
  RETAIL,
  GESTAO,
  ...Array.from({ length: 22 }, (_, i) => `CC2${String(i + 1).padStart(3, "0")} - Área ${i + 1}`),
];

async function addUser(user: string, name: string, type: PermissionType | "") {
  await insertPermissionRecord({ user, name, type, stores: [], createdAt: new Date() });
}

beforeAll(async () => {
  db = await testDb.db();
  await applyIndexes(db);
  await db
    .collection(FORECAST)
    .insertMany(CENTERS.map((cc) => ({ rf: "RF2 2027", cost_center_concat: cc, account_concat: "4101001 - X" })));
  await addUser("admin@example.com", "Admin Portal", "SYSTEM ADMIN");
  await addUser("gold@example.com", "Joana Gold", "USER GOLD");
  await addUser("gold2@example.com", "Pedro Ouro", "USER GOLD");
  await addUser("silver@example.com", "Sílvia Prata", "USER SILVER");
  await addUser("ana1@example.com", "Ana Souza", "USER GOLD");
  await addUser("ana2@example.com", "ana  souza", "SYSTEM ADMIN");
});

beforeEach(() => {
  currentUser.type = "SYSTEM ADMIN";
  currentUser.email = "admin@example.com";
  currentUser.name = "Admin Portal";
});

/** An action's refusal: its message, shown above the form. */
type Refusal = { error: { message: string } };
const load = async (query = "") =>
  dataAnswer<BodyOf<typeof loader>>(await loader(routeArgs(new Request(`${ORIGIN}${PATH}${query}`))));
const post = (fields: Record<string, string | string[]>, query = "") => {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) body.append(key, v);
  return responseOf(
    action(routeArgs(new Request(`${ORIGIN}${PATH}${query}`, { method: "POST", body, headers: { Origin: ORIGIN } }))),
  );
};
const location = (response: Response) => new URL(response.headers.get("Location") ?? "", ORIGIN);
const assignments = async () =>
  (await db.collection(FORECAST_PREPARERS).find({}).sort({ cost_center_concat: 1, user: 1 }).toArray()).map(
    (r) => `${r.cost_center_concat}|${r.user}`,
  );

describe("the list", () => {
  it("pages the cost centres 20 at a time, the page in the URL, past the end answering the last page", async () => {
    const first = await load();
    expect(first.body).toMatchObject({ total: 25, page: 1, pageCount: 2 });
    expect(first.body.rows).toHaveLength(20);
    expect(first.body.rows[0]).toEqual({ costCenter: MARKETING, inForecast: true, preparers: [] });
    const second = await load("?page=2");
    expect(second.body.rows.map((r) => r.costCenter)).toEqual(CENTERS.slice(20));
    expect((await load("?page=99")).body).toMatchObject({ page: 2, state: { page: 2 } });
    expect((await load("?page=abc")).body.page).toBe(1);
  });

  it("filters by the cost centre's text without case or accents, and by 'sem responsável'", async () => {
    expect((await load("?q=GESTAO")).body.rows.map((r) => r.costCenter)).toEqual([GESTAO]);
    expect((await load("?q=cc100")).body.total).toBe(3);
    await db
      .collection(FORECAST_PREPARERS)
      .insertOne({ cost_center_concat: RETAIL, user: "gold@example.com", assigned_at: new Date(), assigned_by: "x" });
    try {
      const without = await load("?q=cc100&sem=1");
      expect(without.body.rows.map((r) => r.costCenter)).toEqual([MARKETING, GESTAO]);
      const all = await load("?q=varejo");
      expect(all.body.rows[0].preparers).toEqual([
        { email: "gold@example.com", known: true, name: "Joana Gold", type: "USER GOLD", mayPrepare: true },
      ]);
    } finally {
      await db.collection(FORECAST_PREPARERS).deleteMany({});
    }
  });
});

describe("the queries", () => {
  it("reads every collection through an index: the list and the template", async () => {
    await db
      .collection(FORECAST_PREPARERS)
      .insertOne({ cost_center_concat: RETAIL, user: "gold@example.com", assigned_at: new Date(), assigned_by: "x" });
    try {
      const options = { minDocuments: 1 };
      expect((await expectIndexedQueries(db, () => load("?q=cc100&sem=1"), options)).body.total).toBe(2);
      const download = await expectIndexedQueries(
        db,
        async () => {
          const response = await templateLoader(routeArgs(new Request(`${ORIGIN}${PATH}/modelo`)));
          return Buffer.from(await (response as Response).arrayBuffer());
        },
        options,
      );
      expect(download.length).toBeGreaterThan(0);
    } finally {
      await db.collection(FORECAST_PREPARERS).deleteMany({});
    }
  });
});

describe("assignments the rules no longer allow", () => {
  it("still lists them, marked, so that they can be removed", async () => {
    const CLOSED = "CC9000 - Encerrado";
    await db.collection(FORECAST_PREPARERS).insertMany([
      { cost_center_concat: CLOSED, user: "gone@example.com", assigned_at: new Date(), assigned_by: "x" },
      { cost_center_concat: MARKETING, user: "silver@example.com", assigned_at: new Date(), assigned_by: "x" },
    ]);
    const closed = await load("?q=encerrado");
    expect(closed.body.rows).toEqual([
      {
        costCenter: CLOSED,
        inForecast: false,
        preparers: [{ email: "gone@example.com", known: false, name: "", type: "", mayPrepare: false }],
      },
    ]);
    expect((await load("?q=marketing")).body.rows[0].preparers).toEqual([
      { email: "silver@example.com", known: true, name: "Sílvia Prata", type: "USER SILVER", mayPrepare: false },
    ]);
    await post({ intent: "remove", cost_center_concat: CLOSED, user: "gone@example.com", confirm: "1" });
    await post({ intent: "remove", cost_center_concat: MARKETING, user: "silver@example.com", confirm: "1" });
    expect(await assignments()).toEqual([]);
    expect((await load()).body.total).toBe(25);
  });
});

describe("adding and removing", () => {
  it("offers the people who may prepare, by name and e-mail, for the picker; no one who may not", async () => {
    const people = (await load()).body.people;
    expect(people).toEqual(
      expect.arrayContaining([
        { email: "admin@example.com", name: "Admin Portal" },
        { email: "gold@example.com", name: "Joana Gold" },
        { email: "gold2@example.com", name: "Pedro Ouro" },
      ]),
    );
    expect(people.map((p) => p.email)).not.toContain("silver@example.com");
    // By name, as a person looks for them.
    const names = people.map((p) => p.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "pt-BR")));
  });

  it("adds a portal user who may edit the forecast, by e-mail, and says so after the redirect", async () => {
    const response = await post({ intent: "add", cost_center_concat: MARKETING, user: " Gold@Example.com " }, "?q=cc1");
    expect(response.status).toBe(302);
    const to = location(response);
    expect(to.pathname).toBe(PATH);
    expect(to.searchParams.get("q")).toBe("cc1");
    expect(to.searchParams.get("ok")).toBe("added");
    expect(await assignments()).toEqual([`${MARKETING}|gold@example.com`]);
    const page = await load(to.search);
    expect(page.body.notice).toMatchObject({ tone: "success", text: t.ok.added("gold@example.com", MARKETING) });
    expect(page.body.rows[0].preparers[0]).toMatchObject({ email: "gold@example.com", name: "Joana Gold" });
    // A code alone names its cost centre, and the notice names it whole.
    const byCode = location(await post({ intent: "add", cost_center_concat: "cc1003", user: "gold@example.com" }));
    expect((await load(byCode.search)).body.notice).toMatchObject({ text: t.ok.added("gold@example.com", GESTAO) });
    await post({ intent: "remove", cost_center_concat: GESTAO, user: "gold@example.com", confirm: "1" });
    // A crafted link claims nothing that is not so.
    const crafted = `?ok=added&cc=${encodeURIComponent(RETAIL)}&email=gold@example.com`;
    expect((await load(crafted)).body.notice).toBeNull();
  });

  it("refuses an e-mail that is no portal user, a USER SILVER, an unknown cost centre and a repeat, changing nothing", async () => {
    const before = await assignments();
    const cases: [Record<string, string>, string][] = [
      [{ cost_center_concat: MARKETING, user: "nobody@example.com" }, t.refused.notUser("nobody@example.com")],
      [
        { cost_center_concat: MARKETING, user: "silver@example.com" },
        t.refused.cannotEdit("silver@example.com", "USER SILVER"),
      ],
      [
        { cost_center_concat: "CC9999 - Nada", user: "gold2@example.com" },
        t.refused.unknownCostCenter("CC9999 - Nada"),
      ],
      [
        { cost_center_concat: MARKETING, user: "gold@example.com" },
        t.refused.alreadyAssigned("gold@example.com", MARKETING),
      ],
      [{ cost_center_concat: MARKETING, user: "não é@e-mail" }, t.refused.invalidEmail("não é@e-mail")],
      [{ cost_center_concat: MARKETING, user: "" }, t.refused.userRequired],
    ];
    for (const [fields, message] of cases) {
      const answer = dataAnswer<Refusal>(await post({ intent: "add", ...fields }));
      expect(answer.status).toBe(400);
      expect(answer.body.error.message).toBe(message);
    }
    const odd = dataAnswer<Refusal>(await post({ intent: "drop", user: '{"$ne":null}' }));
    expect(odd).toMatchObject({ status: 400, body: { error: { message: t.refused.invalidForm } } });
    expect(await assignments()).toEqual(before);
  });

  it("finds the user by name (without case, accents or extra spaces; else by each word's start), among those who may prepare", async () => {
    type Choices = { error: { message: string; costCenter: string; choices?: { email: string; name: string }[] } };
    const before = await assignments();
    const exact = location(await post({ intent: "add", cost_center_concat: RETAIL, user: "  JOANA   gold " }));
    expect([exact.searchParams.get("ok"), exact.searchParams.get("email")]).toEqual(["added", "gold@example.com"]);
    const start = location(await post({ intent: "add", cost_center_concat: GESTAO, user: "ped our" }));
    expect([start.searchParams.get("ok"), start.searchParams.get("email")]).toEqual(["added", "gold2@example.com"]);
    expect((await load(start.search)).body.notice).toMatchObject({ text: t.ok.added("gold2@example.com", GESTAO) });
    expect(await assignments()).toEqual(
      [...before, `${GESTAO}|gold2@example.com`, `${RETAIL}|gold@example.com`].sort(),
    );
    for (const [cc, user] of [
      [RETAIL, "gold@example.com"],
      [GESTAO, "gold2@example.com"],
    ])
      await post({ intent: "remove", cost_center_concat: cc, user, confirm: "1" });

    // Several people match: nothing is added, and each is offered to pick (their e-mail).
    const several = dataAnswer<Choices>(
      await post({ intent: "add", cost_center_concat: MARKETING, user: "ana souza" }),
    );
    expect(several.status).toBe(400);
    expect(several.body.error.message).toBe(t.refused.severalNamed("ana souza", 2));
    expect(several.body.error.costCenter).toBe(MARKETING);
    expect([...(several.body.error.choices ?? [])].sort((a, b) => a.email.localeCompare(b.email))).toEqual([
      { email: "ana1@example.com", name: "Ana Souza" },
      { email: "ana2@example.com", name: "ana  souza" },
    ]);
    // No one, or only someone who may not prepare (USER SILVER): said so, with no choices.
    for (const name of ["Gabriela", "silvia prata"]) {
      const none = dataAnswer<Choices>(await post({ intent: "add", cost_center_concat: MARKETING, user: name }));
      expect(none.status).toBe(400);
      expect(none.body.error).toEqual({ message: t.refused.noneNamed(name), costCenter: MARKETING });
    }
    expect(await assignments()).toEqual(before);
  });

  it("removes a preparer only after the confirmation", async () => {
    const ask = await post({ intent: "remove", cost_center_concat: MARKETING, user: "gold@example.com" });
    const confirmUrl = location(ask);
    expect(confirmUrl.searchParams.get("remover")).toBe(MARKETING);
    expect(await assignments()).toEqual([`${MARKETING}|gold@example.com`]);
    expect((await load(confirmUrl.search)).body.removing).toEqual({
      costCenter: MARKETING,
      email: "gold@example.com",
      warning: null,
    });
    // A link naming a pair that does not exist asks nothing.
    expect((await load(`?remover=${encodeURIComponent(RETAIL)}&usuario=gold@example.com`)).body.removing).toBeNull();

    const done = await post({
      intent: "remove",
      cost_center_concat: MARKETING,
      user: "gold@example.com",
      confirm: "1",
    });
    expect(location(done).searchParams.get("ok")).toBe("removed");
    expect(await assignments()).toEqual([]);
    expect((await load(location(done).search)).body.notice).toMatchObject({
      tone: "success",
      text: t.ok.removed("gold@example.com", MARKETING),
    });
    const again = dataAnswer<Refusal>(
      await post({ intent: "remove", cost_center_concat: MARKETING, user: "gold@example.com", confirm: "1" }),
    );
    expect(again.status).toBe(400);
    expect(again.body.error.message).toBe(t.refused.notAssigned("gold@example.com", MARKETING));
  });

  it("warns before removing the only preparer of a cost centre Enviado in the open RF", async () => {
    const open = scenarioOpenOn(portalToday())!.name;
    await post({ intent: "add", cost_center_concat: GESTAO, user: "gold2@example.com" });
    const ask = `?remover=${encodeURIComponent(GESTAO)}&usuario=gold2@example.com`;
    expect((await load(ask)).body.removing).toEqual({ costCenter: GESTAO, email: "gold2@example.com", warning: null });
    await db
      .collection(FORECAST_CYCLE)
      .insertOne({ rf: open, cost_center_concat: GESTAO, state: "submitted", updated_at: new Date() });
    try {
      expect((await load(ask)).body.removing).toEqual({
        costCenter: GESTAO,
        email: "gold2@example.com",
        warning: t.removeOnlySubmitted(GESTAO, open),
      });
      // With a second preparer the cost centre keeps one: no warning.
      await post({ intent: "add", cost_center_concat: GESTAO, user: "gold@example.com" });
      expect((await load(ask)).body.removing?.warning).toBeNull();
    } finally {
      await db.collection(FORECAST_CYCLE).deleteMany({ cost_center_concat: GESTAO });
      for (const user of ["gold2@example.com", "gold@example.com"])
        await post({ intent: "remove", cost_center_concat: GESTAO, user, confirm: "1" });
    }
  });

  it("is the administrators' alone: anyone else gets 403 from the guard", async () => {
    for (const type of ["USER GOLD", "USER SILVER"] as const) {
      currentUser.type = type;
      expect((await responseOf(loader(routeArgs(new Request(`${ORIGIN}${PATH}`))))).status).toBe(403);
      expect((await post({ intent: "add", cost_center_concat: MARKETING, user: "gold@example.com" })).status).toBe(403);
      expect((await responseOf(templateLoader(routeArgs(new Request(`${ORIGIN}${PATH}/modelo`))))).status).toBe(403);
    }
    expect(await assignments()).toEqual([]);
  });
});

describe("the audit trail", () => {
  const entries = async () =>
    (await db.collection(AUDIT_LOG).find({ dataset: "forecast_preparers" }).sort({ n: 1 }).toArray()).map((e) => ({
      actor: e.actor?.email,
      event: e.event,
      object: e.object?.id ?? null,
      details: e.details,
    }));

  it("keeps who added, removed or loaded preparers, on which cost centre, as the person who did it", async () => {
    await db.collection(AUDIT_LOG).deleteMany({ dataset: "forecast_preparers" });
    await post({ intent: "add", cost_center_concat: GESTAO, user: "gold2@example.com" });
    await post({ intent: "remove", cost_center_concat: GESTAO, user: "gold2@example.com", confirm: "1" });
    const form = new FormData();
    form.set("arquivo", new File([`cost_center_concat;user_email\r\n${GESTAO};gold2@example.com\r\n`], "m.csv"));
    await templateAction(
      routeArgs(new Request(`${ORIGIN}${PATH}/modelo`, { method: "POST", body: form, headers: { Origin: ORIGIN } })),
    );
    await post({ intent: "remove", cost_center_concat: GESTAO, user: "gold2@example.com", confirm: "1" });
    expect(await entries()).toEqual([
      {
        actor: "admin@example.com",
        event: "dataEdited",
        object: GESTAO,
        details: { action: "preparerAdded", user: "gold2@example.com" },
      },
      {
        actor: "admin@example.com",
        event: "dataEdited",
        object: GESTAO,
        details: { action: "preparerRemoved", user: "gold2@example.com" },
      },
      {
        actor: "admin@example.com",
        event: "dataEdited",
        object: "forecast_preparers",
        details: { action: "preparersLoaded", via: "template", assigned: 1, present: 0, refused: 0 },
      },
      {
        actor: "admin@example.com",
        event: "dataEdited",
        object: GESTAO,
        details: { action: "preparerRemoved", user: "gold2@example.com" },
      },
    ]);
  });
});

describe("the suggestion from the FP&A responsibles", () => {
  beforeAll(async () => {
    await db.collection(FPA_RESPONSIBLES).insertMany([
      { _id: "2236", costCenter: "CC1001 - Marketing Brasil", userResponsible: "JOANA  gold" },
      { _id: "4313", costCenter: RETAIL, userResponsible: "Ana Souza" },
      { _id: "4664", costCenter: "CC7777 - Outra", userResponsible: "Pedro Ouro" },
      { _id: "5454", costCenter: GESTAO, userResponsible: "Silvia Prata" },
      { _id: "9311", costCenter: GESTAO, userResponsible: "Fulano de Tal" },
    ] as never[]);
  });

  it("proposes the unambiguous matches, lists the rest with the reason, and assigns them on confirmation", async () => {
    const shown = (await load("?sugerir=1")).body.suggestion!;
    expect(shown.proposals.map((p) => [p.cost_center_concat, p.user])).toEqual([[MARKETING, "gold@example.com"]]);
    expect(shown.unmatched.map((u) => [u.unit, u.reasonText])).toEqual([
      ["4313", `2 usuários chamados “Ana Souza”: atribua manualmente.`],
      ["4664", `Centro de custo “CC7777 - Outra” não encontrado no forecast.`],
      ["5454", "silver@example.com (USER SILVER) não tem um perfil que edita o forecast."],
      ["9311", "Nenhum usuário chamado “Fulano de Tal”."],
    ]);
    // The confirmation carries the pairs shown; the server checks each again (a tampered one is refused).
    const response = await post({ intent: "suggest", par: [...shown.pairs, `${GESTAO}\tsilver@example.com`] });
    const to = location(response);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      ok: "suggested",
      novos: "1",
      existentes: "0",
      recusadas: "1",
    });
    expect(await assignments()).toEqual([`${MARKETING}|gold@example.com`]);
    const after = await load(to.search);
    expect(after.body.notice!.refused!.rows).toEqual([
      {
        line: 2,
        costCenter: GESTAO,
        email: "silver@example.com",
        reason: t.refused.cannotEdit("silver@example.com", "USER SILVER"),
      },
    ]);
    // Proposed again, the pair is already there: nothing new to propose.
    expect((await load("?sugerir=1")).body.suggestion).toMatchObject({ proposals: [], already: 1 });
  });
});

describe("the template", () => {
  const upload = (file: File) => {
    const form = new FormData();
    form.set("arquivo", file);
    return responseOf(
      templateAction(
        routeArgs(new Request(`${ORIGIN}${PATH}/modelo`, { method: "POST", body: form, headers: { Origin: ORIGIN } })),
      ),
    ) as Promise<Response>;
  };

  async function xlsxFile(rows: string[][]): Promise<File> {
    const { default: Excel } = await import("exceljs");
    const workbook = new Excel.Workbook();
    const sheet = workbook.addWorksheet("Responsáveis");
    for (const row of rows) sheet.addRow(row);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    return new File([buffer], "modelo.xlsx");
  }

  it("downloads the current assignments and adds the rows of a filled one, listing the refused with line and reason", async () => {
    const download = await responseOf(templateLoader(routeArgs(new Request(`${ORIGIN}${PATH}/modelo`))));
    expect(download.headers.get("Content-Type")).toContain("spreadsheetml");
    const bytes = Buffer.from(await download.arrayBuffer());
    const rows: string[][] = [];
    for await (const row of readXlsxRows(Readable.from([bytes]))) rows.push(row.cells.map((c) => cellText(c)));
    expect(rows).toEqual([
      ["cost_center_concat", "user_email"],
      [MARKETING, "gold@example.com"],
    ]);

    const filled = await xlsxFile([
      ...rows,
      [RETAIL, "GOLD2@example.com"],
      [RETAIL, "silver@example.com"],
      ["CC9999 - Nada", "gold@example.com"],
      [],
      [GESTAO, "nobody@example.com"],
    ]);
    const to = location(await upload(filled));
    expect(to.pathname).toBe(PATH);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({
      ok: "uploaded",
      novos: "1",
      existentes: "1",
      recusadas: "3",
    });
    expect(await assignments()).toEqual([`${MARKETING}|gold@example.com`, `${RETAIL}|gold2@example.com`]);
    const page = await load(to.search);
    expect(page.body.notice).toMatchObject({ tone: "warning", title: t.uploadDone, text: t.ok.summary(1, 1, 3) });
    expect(page.body.notice!.refused!.rows.map((r) => [r.line, r.reason])).toEqual([
      [4, t.refused.cannotEdit("silver@example.com", "USER SILVER")],
      [5, t.refused.unknownCostCenter("CC9999 - Nada")],
      [7, t.refused.notUser("nobody@example.com")],
    ]);
    // Another administrator does not see this upload's refusals.
    currentUser.email = "other-admin@example.com";
    expect((await load(to.search)).body.notice!.refused).toBeNull();
  });

  it("takes a CSV separated by ';' in Windows-1252, and never removes what the file leaves out", async () => {
    const text = `cost_center_concat;user_email\r\n${GESTAO};gold@example.com\r\n`;
    const bytes = Buffer.from(new Uint8Array([...text].map((ch) => ch.charCodeAt(0))));
    expect(bytes.includes(0xe3)).toBe(true); // "ã" as one Windows-1252 byte
    const to = location(await upload(new File([bytes], "modelo.csv")));
    expect(to.searchParams.get("novos")).toBe("1");
    expect(await preparersOf([GESTAO, MARKETING, RETAIL])).toEqual(
      new Map([
        [MARKETING, ["gold@example.com"]],
        [RETAIL, ["gold2@example.com"]],
        [GESTAO, ["gold@example.com"]],
      ]),
    );
  });

  it("takes a cost centre's code alone, as the suggestion matches it; a code two cost centres share is refused", async () => {
    await db.collection(FORECAST).insertMany([
      { rf: "RF2 2027", cost_center_concat: "CC7001 - Norte", account_concat: "4101001 - X" },
      { rf: "RF2 2027", cost_center_concat: "CC7001 - Norte (antigo)", account_concat: "4101001 - X" },
    ]);
    try {
      const text = `cost_center_concat;user_email\r\ncc1002;silver-not@example.com\r\nCC1002;gold@example.com\r\nCC7001;gold@example.com\r\n`;
      const to = location(await upload(new File([text], "codigos.csv")));
      expect(to.searchParams.get("novos")).toBe("1");
      expect((await preparersOf([RETAIL])).get(RETAIL)).toContain("gold@example.com");
      const page = await load(to.search);
      expect(page.body.notice!.refused!.rows.map((r) => [r.line, r.reason])).toEqual([
        [2, t.refused.notUser("silver-not@example.com")],
        [4, t.refused.ambiguousCode("CC7001")],
      ]);
    } finally {
      await db.collection(FORECAST).deleteMany({ cost_center_concat: /^CC7001/ });
    }
  });

  it("refuses a file of another type, without the header, or empty, changing nothing", async () => {
    const before = await assignments();
    const cases: [File, string][] = [
      [new File(["x"], "modelo.pdf"), "type"],
      [
        await xlsxFile([
          ["centro", "email"],
          [MARKETING, "gold2@example.com"],
        ]),
        "noHeader",
      ],
      [await xlsxFile([["cost_center_concat", "user_email"]]), "empty"],
      [new File(["not a zip"], "modelo.xlsx"), "unreadable"],
    ];
    for (const [file, code] of cases) {
      const to = location(await upload(file));
      expect(to.searchParams.get("erro")).toBe(code);
      expect((await load(to.search)).body.notice!.tone).toBe("error");
    }
    expect(await assignments()).toEqual(before);
  });
});
