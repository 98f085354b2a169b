import type { ObjectId } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { BodyOf } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { figureInputName } from "~/features/hr/edits";
import { monthRangeParams } from "~/features/hr/month-range";
import { hrGridPath } from "~/features/hr/paths";
import { messages } from "~/messages";
import { applyIndexes } from "~/models/all-indexes.server";
import { HR_AUX, HR_AUX_CHANGES, type HrAuxRecord } from "~/models/hr.server";
import { loader as pickerLoader } from "~/routes/ij.rh";
import { action as gridAction, loader as gridLoader } from "~/routes/ij.rh_edit.$filial";
import { type Month, monthKey, monthLabel, monthOfDate } from "~/shared/months";
import { BRANCH_A, BRANCH_B, insertHrRecords, LAST_MONTH, MONTH_BEFORE, RAW_CPFS, setPermission } from "./fixtures";
import { hrTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * The HR screens' loaders and actions on the embedded database: the picker, the grid (sorted, masked, scoped),
 * and the saves (editors only, validated, within the branch, each change recorded).
 */

const testDb = useTestDatabase();
let records: Array<HrAuxRecord & { _id: ObjectId }>;

/** A route's answer as status and body; the body in the shape the test reads (by default, a record of fields). */
type Unwrapped<Body> = { status: number; body: Body };
function unwrap<Body = Record<string, unknown>>(value: unknown): Unwrapped<Body> {
  const v = value as { type?: string; data?: unknown; init?: { status?: number } };
  if (v && v.type === "DataWithResponseInit") return { status: v.init?.status ?? 200, body: v.data as Body };
  return { status: 200, body: value as Body };
}

const request = (path: string, init?: RequestInit) => new Request(`http://localhost${path}`, init);
const loadPicker = async (query = "") =>
  unwrap<BodyOf<typeof pickerLoader>>(
    await pickerLoader({ request: request(`/ij/rh${query}`), params: {}, context: {} as never }),
  );
const loadGrid = async (filial: string, query = "") =>
  unwrap<BodyOf<typeof gridLoader>>(
    await gridLoader({ request: request(`${hrGridPath(filial)}${query}`), params: { filial }, context: {} as never }),
  );
const post = (filial: string, fields: Record<string, string> | URLSearchParams, query = "") =>
  gridAction({
    request: request(`${hrGridPath(filial)}${query}`, {
      method: "POST",
      body: fields instanceof URLSearchParams ? fields : new URLSearchParams(fields),
    }),
    params: { filial },
    context: {} as never,
  });

const rowsOf = (branch: string, month: Month) =>
  records.filter((r) => r.filial_nome === branch && monthOfDate(r.mes_apur) === month);
const stored = async (id: ObjectId) =>
  (await (await testDb.db()).collection<HrAuxRecord>(HR_AUX).findOne({ _id: id }))!;
async function snapshot() {
  const db = await testDb.db();
  return JSON.stringify([
    await db.collection(HR_AUX).find({}).sort({ _id: 1 }).toArray(),
    await db.collection(HR_AUX_CHANGES).countDocuments(),
  ]);
}

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  records = await insertHrRecords(db);
  await setPermission(db, "gold@example.com", "USER GOLD");
  await setPermission(db, "silver@example.com", "USER SILVER");
  await setPermission(db, "scoped@example.com", "USER SILVER", [BRANCH_B, "Loja que não existe"]);
  await setPermission(db, "scoped-gold@example.com", "USER GOLD", [BRANCH_B]);
});

function signInAs(email: string, type: "USER GOLD" | "USER SILVER" | "USER BRONZE" | "USER EXPLORER" | "SYSTEM ADMIN") {
  currentUser.email = email;
  currentUser.type = type;
}

beforeEach(() => signInAs("gold@example.com", "USER GOLD"));

describe("/ij/rh (branch picker)", () => {
  it("lists the distinct branches by name and defaults the months to the previous calendar month", async () => {
    const { body } = await loadPicker();
    expect(body.branches).toEqual([BRANCH_B, BRANCH_A]);
    expect(body.months).toEqual({ from: monthKey(LAST_MONTH), to: monthKey(LAST_MONTH) });
    expect(body).toMatchObject({ selected: null, error: null, monthError: null, scoped: false });
  });

  it("Generate Review goes to the grid with the branch and the month range", async () => {
    const query = `?filial=${encodeURIComponent(BRANCH_A)}&mes_inicio=${monthKey(MONTH_BEFORE)}&mes_fim=${monthKey(LAST_MONTH)}&intent=generate`;
    await expect(
      pickerLoader({ request: request(`/ij/rh${query}`), params: {}, context: {} as never }),
    ).rejects.toRedirectTo(hrGridPath(BRANCH_A, { from: MONTH_BEFORE, to: LAST_MONTH }));
  });

  it("Generate Review without a branch, with an unknown one or with a bad range stays with a message", async () => {
    expect((await loadPicker("?intent=generate")).body.error).toBe(hrTexts.chooseBranch);
    expect((await loadPicker(`?intent=generate&filial=${encodeURIComponent('{"$ne":null}')}`)).body.error).toBe(
      hrTexts.chooseBranch,
    );
    const reversed = await loadPicker(
      `?intent=generate&filial=${encodeURIComponent(BRANCH_A)}&mes_inicio=${monthKey(LAST_MONTH)}&mes_fim=${monthKey(MONTH_BEFORE)}`,
    );
    expect(reversed.body).toMatchObject({
      selected: BRANCH_A,
      monthError: hrTexts.monthReversed,
      months: { from: monthKey(LAST_MONTH), to: monthKey(MONTH_BEFORE) },
    });
  });

  it("shows a scoped user only the branches linked to them", async () => {
    signInAs("scoped@example.com", "USER SILVER");
    expect((await loadPicker()).body).toMatchObject({ branches: [BRANCH_B], scoped: true });
  });

  it("preselects the only branch of a reader who may see one, and counts it in the singular", async () => {
    signInAs("scoped@example.com", "USER SILVER");
    expect((await loadPicker()).body).toMatchObject({ branches: [BRANCH_B], selected: BRANCH_B });
    await expect(
      pickerLoader({ request: request("/ij/rh?intent=generate"), params: {}, context: {} as never }),
    ).rejects.toRedirectTo(hrGridPath(BRANCH_B, { from: LAST_MONTH, to: LAST_MONTH }));
    expect(hrTexts.branchCount(1, 1)).toBe("1 filial");
    expect(hrTexts.branchCount(2, 2)).toBe("2 filiais");
    expect(hrTexts.branchCount(1, 2)).toBe("1 de 2 filiais");
    expect(hrTexts.branchCount(0, 1)).toBe("0 de 1 filial");
  });

  it("is refused to the types that do not read HR data", async () => {
    for (const type of ["USER BRONZE", "USER EXPLORER"] as const) {
      signInAs("x@example.com", type);
      await expect(loadPicker()).rejects.toMatchObject({ status: 403 });
    }
  });
});

describe("/ij/rh_edit/{filial} (grid)", () => {
  it("shows the branch's rows of the default month, sorted by nome, with the CPF masked", async () => {
    const { status, body } = await loadGrid(BRANCH_A);
    expect(status).toBe(200);
    expect(body.range).toEqual({ from: LAST_MONTH, to: LAST_MONTH });
    expect(body.rows.map((r: { nome: string }) => r.nome)).toEqual([
      "Ana Paula Costa",
      "Marcos Vieira",
      "Renata Souza Lima",
    ]);
    expect(body.rows[0]).toEqual({
      id: String(rowsOf(BRANCH_A, LAST_MONTH)[1]._id),
      filial_nome: BRANCH_A,
      mes_apur: LAST_MONTH,
      nome: "Ana Paula Costa",
      cpf: "***.444.777-**",
      comentario: "",
      vendas_adicionais: 1001,
      dias_media: 21.5,
      result_qtde_servico: 11,
      result_desafio_mensal: 95.25,
      vendas_servicos: 500.5,
    });
    expect(body.canEdit).toBe(true);
    expect(body.people).toEqual([
      { matricula: "100202", nome: "Ana Paula Costa", cargo: "Gerente de Loja" },
      { matricula: "100203", nome: "Marcos Vieira", cargo: "Caixa" },
      { matricula: "100201", nome: "Renata Souza Lima", cargo: "Consultora de Beleza" },
    ]);
    const payload = JSON.stringify(body);
    for (const cpf of RAW_CPFS) {
      expect(payload).not.toContain(cpf);
      expect(payload).not.toContain(`${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`);
    }
  });

  it("sorts a month range by mes_apur, then nome", async () => {
    const { body } = await loadGrid(BRANCH_A, `?${monthRangeParams({ from: MONTH_BEFORE, to: LAST_MONTH })}`);
    expect(body.rows.map((r) => `${r.mes_apur} ${r.nome}`)).toEqual([
      `${MONTH_BEFORE} Ana Paula Costa`,
      `${MONTH_BEFORE} Marcos Vieira`,
      `${MONTH_BEFORE} Renata Souza Lima`,
      `${LAST_MONTH} Ana Paula Costa`,
      `${LAST_MONTH} Marcos Vieira`,
      `${LAST_MONTH} Renata Souza Lima`,
    ]);
  });

  it("shows readers the same grid, read-only", async () => {
    signInAs("silver@example.com", "USER SILVER");
    const { body } = await loadGrid(BRANCH_A);
    expect(body.canEdit).toBe(false);
    expect(body.rows).toHaveLength(3);
  });

  it("answers an unknown branch, an operator or a branch outside the user's scope with 404 and a message, not rows", async () => {
    for (const filial of ["Loja Fantasma", '{"$ne":""}', "$where", ".*", "x".repeat(5000)]) {
      const { status, body } = await loadGrid(filial);
      expect(status, filial).toBe(404);
      expect(body.rows).toEqual([]);
      expect(body.notFound).toBe(true);
    }
    signInAs("scoped@example.com", "USER SILVER");
    expect((await loadGrid(BRANCH_A)).status).toBe(404);
    expect((await loadGrid(BRANCH_B)).body.rows).toHaveLength(1);
  });

  it("says why a month range is refused and shows no rows", async () => {
    const reversed = await loadGrid(BRANCH_A, `?mes_inicio=${monthKey(LAST_MONTH)}&mes_fim=${monthKey(MONTH_BEFORE)}`);
    expect(reversed.body).toMatchObject({ monthError: hrTexts.monthReversed, range: null, rows: [] });
    const early = await loadGrid(BRANCH_A, "?mes_inicio=1990-01&mes_fim=1990-02");
    expect(early.body.monthError).toMatch(/^Escolha meses entre 01\/2000 e /);
    const junk = await loadGrid(BRANCH_A, `?mes_inicio[$gt]=&mes_fim=${"9".repeat(10_000)}`);
    expect(junk.body.monthError).toBe(hrTexts.monthInvalid);
  });
});

describe("the HR queries", () => {
  it("are all served by indexes (picker, grid, people, saves), never a collection scan", async () => {
    const db = await testDb.db();
    const [renata] = rowsOf(BRANCH_A, LAST_MONTH);
    const [joana] = rowsOf(BRANCH_B, LAST_MONTH);
    await expectIndexedQueries(
      db,
      async () => {
        await loadPicker();
        await loadGrid(BRANCH_A, `?${monthRangeParams({ from: MONTH_BEFORE, to: LAST_MONTH })}`);
        await post(BRANCH_A, { intent: "save", [figureInputName("dias_media", String(renata._id))]: "20" });
        await post(BRANCH_B, { intent: "comment", id: String(joana._id), comentario: "Indexado" });
      },
      { minDocuments: 5 },
    );
  });
});

describe("saving figures and comments", () => {
  const save = (fields: Record<string, string>, confirmed = true) =>
    post(BRANCH_A, { intent: "save", ...(confirmed ? { confirmed: "1" } : {}), ...fields });

  it("answers an editor's empty or unknown form with 400 and a message, and a reader's with 403 whatever it carries", async () => {
    const bodies: Array<Record<string, string>> = [
      {},
      { intent: "x" },
      { intent: "comment" },
      { intent: "comment", id: "nope", comentario: "a" },
    ];
    signInAs("gold@example.com", "USER GOLD");
    for (const body of bodies) {
      const result = unwrap(await post(BRANCH_A, body));
      expect(result.status).toBe(400);
      expect(result.body.error).toBe(messages.invalidForm);
    }
    signInAs("silver@example.com", "USER SILVER");
    for (const body of bodies) await expect(post(BRANCH_A, body)).rejects.toMatchObject({ status: 403 });
  });

  it("refuses a reader's well-formed save (403) and changes nothing", async () => {
    signInAs("silver@example.com", "USER SILVER");
    const before = await snapshot();
    const target = rowsOf(BRANCH_A, LAST_MONTH)[0];
    await expect(save({ [figureInputName("vendas_adicionais", String(target._id))]: "1,00" })).rejects.toMatchObject({
      status: 403,
    });
    await expect(post(BRANCH_A, { intent: "comment", id: String(target._id), comentario: "x" })).rejects.toMatchObject({
      status: 403,
    });
    expect(await snapshot()).toBe(before);
  });

  it("without confirmed=1 lists the changes to confirm (the no-JavaScript confirmation) and writes nothing", async () => {
    const target = rowsOf(BRANCH_A, LAST_MONTH)[0];
    const before = await snapshot();
    const result = unwrap(
      await save(
        {
          [figureInputName("vendas_adicionais", String(target._id))]: "2.500,75",
          [figureInputName("dias_media", String(target._id))]: "21,5",
        },
        false,
      ),
    );
    expect(result.status).toBe(200);
    expect(result.body.confirm).toEqual({
      lines: [`Renata Souza Lima (${monthLabel(LAST_MONTH)}) — Vendas adicionais: 1.000,00 → 2.500,75`],
      fields: [{ name: figureInputName("vendas_adicionais", String(target._id)), text: "2.500,75" }],
      saveId: "",
    });
    expect(await snapshot()).toBe(before);
  });

  it("saves only the changed figures, reloads with the spec's message and records who, when, old and new", async () => {
    const [renata, ana] = rowsOf(BRANCH_A, LAST_MONTH);
    const response = await save({
      [figureInputName("vendas_adicionais", String(renata._id))]: "2.500,75",
      [figureInputName("dias_media", String(renata._id))]: "21,5", // unchanged
      [figureInputName("result_qtde_servico", String(ana._id))]: "1.200",
    });
    expect(response).toRedirectTo(hrGridPath(BRANCH_A, { from: LAST_MONTH, to: LAST_MONTH }));
    await expect(response).toSendToast({ type: "success", description: messages.saved });
    expect(await stored(renata._id)).toMatchObject({
      vendas_adicionais: 2500.75,
      dias_media: 21.5,
      updatedBy: "gold@example.com",
    });
    expect(await stored(ana._id)).toMatchObject({ result_qtde_servico: 1200 });
    const changes = await (await testDb.db())
      .collection(HR_AUX_CHANGES)
      .find({ filial_nome: BRANCH_A })
      .sort({ field: 1 })
      .toArray();
    expect(
      changes.map(({ field, old, new: value, user, filial_nome }) => ({ field, old, new: value, user, filial_nome })),
    ).toEqual([
      { field: "result_qtde_servico", old: 11, new: 1200, user: "gold@example.com", filial_nome: BRANCH_A },
      { field: "vendas_adicionais", old: 1000, new: 2500.75, user: "gold@example.com", filial_nome: BRANCH_A },
    ]);
    expect(changes[0].at).toBeInstanceOf(Date);
    expect(Date.now() - changes[0].at.getTime()).toBeLessThan(60_000);
  });

  it("keeps the month range of the page it was saved from", async () => {
    const [renata] = rowsOf(BRANCH_A, MONTH_BEFORE);
    const range = { from: MONTH_BEFORE, to: LAST_MONTH };
    const response = await post(
      BRANCH_A,
      { intent: "save", confirmed: "1", [figureInputName("vendas_servicos", String(renata._id))]: "10" },
      `?${monthRangeParams(range)}`,
    );
    expect(response).toRedirectTo(hrGridPath(BRANCH_A, range));
    expect((await stored(renata._id)).vendas_servicos).toBe(10);
  });

  it("answers an unchanged grid with 'Nenhum valor foi alterado.' and writes nothing", async () => {
    const [renata] = rowsOf(BRANCH_A, LAST_MONTH);
    const before = await snapshot();
    const value = (await stored(renata._id)).vendas_adicionais;
    const response = await save({
      [figureInputName("vendas_adicionais", String(renata._id))]: String(value).replace(".", ","),
    });
    await expect(response).toSendToast({ type: "info", description: hrTexts.noChanges });
    expect(await snapshot()).toBe(before);
  });

  it("refuses invalid figures with a message per cell and writes nothing", async () => {
    const [renata, ana] = rowsOf(BRANCH_A, LAST_MONTH);
    const before = await snapshot();
    const result = unwrap(
      await save({
        [figureInputName("vendas_adicionais", String(renata._id))]: "-10",
        [figureInputName("dias_media", String(ana._id))]: "1,5,0",
        [figureInputName("result_qtde_servico", String(ana._id))]: "3",
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: hrTexts.fixErrors,
      fieldErrors: {
        [figureInputName("vendas_adicionais", String(renata._id))]: hrTexts.negativeNumber,
        [figureInputName("dias_media", String(ana._id))]: hrTexts.invalidNumber,
      },
    });
    expect(await snapshot()).toBe(before);
  });

  it("refuses a forged id of another branch (or none at all) and writes nothing, not even the valid cells", async () => {
    const [renata] = rowsOf(BRANCH_A, LAST_MONTH);
    const [joana] = rowsOf(BRANCH_B, LAST_MONTH);
    const before = await snapshot();
    for (const id of [String(joana._id), "0123456789abcdef01234567"]) {
      const result = unwrap(
        await save({
          [figureInputName("vendas_adicionais", String(renata._id))]: "1",
          [figureInputName("vendas_adicionais", id)]: "1",
        }),
      );
      expect(result).toEqual({ status: 400, body: { error: hrTexts.unknownRecords } });
      const comment = unwrap(await post(BRANCH_A, { intent: "comment", id, comentario: "forjado" }));
      expect(comment).toEqual({ status: 400, body: { error: null, commentError: hrTexts.recordNotFound } });
    }
    expect(await snapshot()).toBe(before);
  });

  it("refuses a scoped editor's save to a branch outside the scope (404) and writes nothing", async () => {
    signInAs("scoped-gold@example.com", "USER GOLD");
    const [renata] = rowsOf(BRANCH_A, LAST_MONTH);
    const before = await snapshot();
    const result = unwrap(await save({ [figureInputName("vendas_adicionais", String(renata._id))]: "1" }));
    expect(result).toEqual({ status: 404, body: { error: hrTexts.branchNotFound(BRANCH_A) } });
    expect(await snapshot()).toBe(before);
  });

  it("saves a comment of up to 255 characters (a line break counts once), refuses 256, and records the change", async () => {
    const [, ana] = rowsOf(BRANCH_A, LAST_MONTH);
    const id = String(ana._id);
    const before = await snapshot();
    const long = unwrap(await post(BRANCH_A, { intent: "comment", id, comentario: "a".repeat(256) }));
    expect(long).toEqual({ status: 400, body: { error: null, commentError: hrTexts.commentTooLong(255) } });
    expect(await snapshot()).toBe(before);

    const text = `${"b".repeat(200)}\r\n${"c".repeat(54)}`; // 255 characters once "\r\n" is one line break
    const response = await post(BRANCH_A, { intent: "comment", id, comentario: text });
    await expect(response).toSendToast({ type: "success", description: messages.saved });
    expect((await stored(ana._id)).comentario).toBe(`${"b".repeat(200)}\n${"c".repeat(54)}`);
    const change = await (await testDb.db())
      .collection(HR_AUX_CHANGES)
      .findOne({ record_id: ana._id, field: "comentario" });
    expect(change).toMatchObject({ old: "", new: `${"b".repeat(200)}\n${"c".repeat(54)}`, user: "gold@example.com" });
  });

  it("refuses a save or a comment sent again after it succeeded (409, the conflict message) and changes nothing", async () => {
    const [renata, ana] = rowsOf(BRANCH_A, LAST_MONTH);
    const grid = async () => (await loadGrid(BRANCH_A)).body as { saveId: string };
    const figure = figureInputName("vendas_servicos", String(ana._id));
    const original = (await stored(ana._id)).vendas_servicos;

    // The page's body, as the browser sends it (the save id the page was loaded with), saved and then sent again.
    const first = { intent: "save", confirmed: "1", saveId: (await grid()).saveId, [figure]: "777" };
    expect(await post(BRANCH_A, first)).toRedirectTo(hrGridPath(BRANCH_A, { from: LAST_MONTH, to: LAST_MONTH }));
    expect((await stored(ana._id)).vendas_servicos).toBe(777);
    let before = await snapshot();
    expect(unwrap(await post(BRANCH_A, first))).toEqual({ status: 409, body: { error: hrTexts.conflict(1) } });
    // Its confirmation step too (the no-JavaScript form, shown again by Back).
    expect(unwrap(await post(BRANCH_A, { ...first, confirmed: "" }))).toEqual({
      status: 409,
      body: { error: hrTexts.conflict(1) },
    });
    expect(await snapshot()).toBe(before);

    // Someone sets the value back; the first body sent again would undo their save: refused too.
    expect(
      await post(BRANCH_A, {
        intent: "save",
        confirmed: "1",
        saveId: (await grid()).saveId,
        [figure]: String(original).replace(".", ","),
      }),
    ).toRedirectTo(hrGridPath(BRANCH_A, { from: LAST_MONTH, to: LAST_MONTH }));
    before = await snapshot();
    expect(unwrap(await post(BRANCH_A, first))).toEqual({ status: 409, body: { error: hrTexts.conflict(1) } });
    expect(await snapshot()).toBe(before);

    // A comment, saved and sent again after someone changed it.
    const comment = {
      intent: "comment",
      id: String(renata._id),
      comentario: "Primeira versão",
      saveId: (await grid()).saveId,
    };
    await expect(await post(BRANCH_A, comment)).toSendToast({ type: "success", description: messages.saved });
    await post(BRANCH_A, {
      intent: "comment",
      id: String(renata._id),
      comentario: "Outra pessoa",
      saveId: (await grid()).saveId,
    });
    before = await snapshot();
    expect(unwrap(await post(BRANCH_A, comment))).toEqual({
      status: 409,
      body: { error: null, commentError: hrTexts.conflict(1) },
    });
    expect(await snapshot()).toBe(before);
    expect((await stored(renata._id)).comentario).toBe("Outra pessoa");
  });

  it("treats operators and regular expressions in a comment or a figure as text", async () => {
    const [renata] = rowsOf(BRANCH_A, LAST_MONTH);
    const response = await post(BRANCH_A, {
      intent: "comment",
      id: String(renata._id),
      comentario: '{"$set":{"cpf":"0"}} .* $where',
    });
    await expect(response).toSendToast({ type: "success" });
    expect(await stored(renata._id)).toMatchObject({
      comentario: '{"$set":{"cpf":"0"}} .* $where',
      cpf: "52998224725",
    });
    const result = unwrap(await save({ [figureInputName("vendas_adicionais", String(renata._id))]: '{"$inc":1}' }));
    expect(result.status).toBe(400);
  });
});
