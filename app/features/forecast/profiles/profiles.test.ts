import type { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { dataAnswer } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { resetConfigForTests } from "~/config.server";
import { AUDIT_LOG } from "~/models/audit.server";
import { SEASONALITY_PROFILES } from "~/models/seasonality-profiles.server";
import { action, loader } from "~/routes/ij.forecast_perfis_sazonalidade";
import { readToastFromResponse } from "~/shared/toast.server";
import { weightField } from "./profile-form";
import type { ProfilesPage } from "./profiles.server";
import { profileTexts as t } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

/**
 * /ij/forecast_perfis_sazonalidade: SYSTEM ADMIN (and a configured reviewer type) creates, changes and removes
 * profiles, each named once whatever its case; a refused form answers 400 with its messages and writes nothing; a
 * preparer (USER GOLD, who uses profiles in the spread) may neither open nor post it.
 */

const testDb = useTestDatabase();
const base = "http://localhost:3000/ij/forecast_perfis_sazonalidade";
const XMAS = ["1", "1", "1", "1", "1", "1", "1", "1", "1", "1", "2", "4"];
let db: Db;

beforeAll(async () => {
  db = await testDb.db();
});

beforeEach(async () => {
  await db.collection(SEASONALITY_PROFILES).deleteMany({});
  Object.assign(currentUser, { type: "SYSTEM ADMIN", email: "admin@example.com", name: "Sônia Admin" });
});

const load = async (query = "") =>
  (await loader({ request: new Request(`${base}${query}`), params: {}, context: {} } as never)) as ProfilesPage;

function post(fields: Record<string, string>, weights: readonly string[] = XMAS) {
  const body = new URLSearchParams({ intent: "salvar", id: "", atualizado: "", ...fields });
  for (const [i, w] of weights.entries()) body.set(weightField(i + 1), w);
  return action({ request: new Request(base, { method: "POST", body }), params: {}, context: {} } as never);
}

const stored = () => db.collection(SEASONALITY_PROFILES).find({}).sort({ name_key: 1 }).toArray();

describe("seasonality profiles", () => {
  it("creates a profile, lists it with its shares, changes it as read, and removes it; each change audited", async () => {
    const created = (await post({ nome: "Varejo — Natal forte" })) as Response;
    expect(created.status).toBe(302);
    expect((await readToastFromResponse(created))?.description).toBe(t.created("Varejo — Natal forte"));
    const [profile] = await stored();
    expect(profile).toMatchObject({
      name: "Varejo — Natal forte",
      name_key: "varejo — natal forte",
      weights: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 4],
      created_by: "admin@example.com",
      updated_by_name: "Sônia Admin",
    });
    const page = await load();
    expect(page.rows).toHaveLength(1);
    // December weighs 4 of 16: a quarter of the year.
    expect(page.rows[0].shares[11]).toBe("25,0%");

    const id = profile._id.toHexString();
    const editing = await load(`?editar=${id}`);
    expect(editing.form.editing).toBe("Varejo — Natal forte");
    expect(editing.form.values.weights[11]).toBe("4");
    const seen = editing.form.values.seen;
    const changed = (await post({ id, atualizado: seen, nome: "Varejo — Natal forte" }, [
      ...XMAS.slice(0, 11),
      "5,5",
    ])) as Response;
    expect(changed.status).toBe(302);
    expect((await readToastFromResponse(changed))?.description).toBe(t.saved("Varejo — Natal forte"));
    expect((await stored())[0].weights[11]).toBe(5.5);

    // Saved again from the form read before that change: refused, not overwritten.
    const stale = dataAnswer<ProfilesPage>(await post({ id, atualizado: seen, nome: "Outro" }));
    expect(stale.status).toBe(409);
    expect(stale.body.form.errors[""]).toBe(t.changed);
    expect((await stored())[0].name).toBe("Varejo — Natal forte");

    expect((await load(`?excluir=${id}`)).removing).toEqual({ id, name: "Varejo — Natal forte" });
    const removed = (await action({
      request: new Request(base, { method: "POST", body: new URLSearchParams({ intent: "excluir", id }) }),
      params: {},
      context: {},
    } as never)) as Response;
    expect(removed.status).toBe(302);
    expect(await stored()).toEqual([]);
    const audited = await db.collection(AUDIT_LOG).find({ event: "configChanged" }).toArray();
    expect(audited.map((e) => e.object.id)).toEqual(Array(3).fill(`seasonalityProfile:${id}`));
    expect(audited[2].details.after).toBeNull();
  });

  it("keeps one profile per name whatever its case and spaces", async () => {
    expect(((await post({ nome: "Varejo — Natal forte" })) as Response).status).toBe(302);
    const again = dataAnswer<ProfilesPage>(await post({ nome: "  VAREJO  — natal FORTE " }));
    expect(again.status).toBe(400);
    expect(again.body.form.errors.nome).toBe(t.nameTaken("VAREJO  — natal FORTE"));
    expect(again.body.form.values.name).toBe("VAREJO  — natal FORTE");
    expect(await stored()).toHaveLength(1);
  });

  it("answers a refused form with its messages, as typed, writing nothing", async () => {
    const weights = [...XMAS.slice(0, 10), "-1", "x"];
    const answer = dataAnswer<ProfilesPage>(await post({ nome: "" }, weights));
    expect(answer.status).toBe(400);
    expect(answer.body.form.errors).toEqual({
      nome: t.nameInvalid,
      peso11: t.weightInvalid("Novembro"),
      peso12: t.weightInvalid("Dezembro"),
    });
    expect(answer.body.form.values.weights.slice(10)).toEqual(["-1", "x"]);
    const zero = dataAnswer<ProfilesPage>(await post({ nome: "Zero" }, Array(12).fill("0")));
    expect(zero.body.form.errors[""]).toBe(t.weightsZero);
    const forged = dataAnswer<ProfilesPage>(
      await action({
        request: new Request(base, { method: "POST", body: "intent=excluir&id[$ne]=1" }),
        params: {},
        context: {},
      } as never),
    );
    expect(forged.status).toBe(400);
    const empty = dataAnswer<ProfilesPage>(
      await action({ request: new Request(base, { method: "POST" }), params: {}, context: {} } as never),
    );
    expect(empty.status).toBe(400);
    expect(await stored()).toEqual([]);
  });

  it("lets a configured reviewer type keep profiles", async () => {
    process.env.FORECAST_REVIEWER_TYPES = "SYSTEM ADMIN,USER SILVER";
    resetConfigForTests();
    try {
      Object.assign(currentUser, { type: "USER SILVER", email: "silver@example.com", name: "Silvia" });
      expect(((await post({ nome: "Indústria — plano" })) as Response).status).toBe(302);
      expect((await stored())[0].created_by).toBe("silver@example.com");
    } finally {
      delete process.env.FORECAST_REVIEWER_TYPES;
      resetConfigForTests();
    }
  });

  it("refuses a preparer (USER GOLD) the screen and its POST: 403, nothing written", async () => {
    Object.assign(currentUser, { type: "USER GOLD", email: "gold@example.com", name: "Gold" });
    await expect(load()).rejects.toMatchObject({ status: 403 });
    await expect(post({ nome: "Do preparador" })).rejects.toMatchObject({ status: 403 });
    expect(await stored()).toEqual([]);
  });
});
