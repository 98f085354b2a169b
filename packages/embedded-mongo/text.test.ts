/** Text indexes and $text as MongoDB answers them (Portuguese here), through the driver. */
import { type Collection, MongoServerError } from "mongodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness, stopHarness } from "./test-helpers";
import { tokenize } from "./text";

type Article = { _id: number; title: string; body: string; source?: string; score?: number };
let h: Harness;
let docs: Collection<Article>;

beforeAll(async () => {
  h = await startHarness();
  docs = h.client.db("text").collection<Article>("docs");
  await docs.insertMany([
    { _id: 1, title: "Relatório de vendas", body: "As vendas da loja cresceram no trimestre.", source: "loja" },
    { _id: 2, title: "Manutenção preventiva", body: "Plano de manutenção das máquinas da fábrica.", source: "fabrica" },
    { _id: 3, title: "Compras", body: "Relatórios de compras e de manutenções corretivas.", source: "compras" },
    { _id: 4, title: "Férias coletivas", body: "A fábrica entra em férias coletivas em dezembro.", source: "rh" },
    { _id: 5, title: "Vendas online", body: "O canal online vendeu mais do que a loja física.", source: "loja" },
  ]);
  await docs.createIndex(
    { title: "text", body: "text" },
    { weights: { title: 10, body: 2 }, default_language: "portuguese", name: "texto" },
  );
});

afterAll(() => stopHarness(h));

const ids = (list: { _id: number }[]) => list.map((d) => d._id).sort((a, b) => a - b);

describe("text index", () => {
  it("is listed in MongoDB's normal form", async () => {
    const index = (await docs.listIndexes().toArray()).find((i) => i.name === "texto");
    expect(index).toMatchObject({
      key: { _fts: "text", _ftsx: 1 },
      weights: { body: 2, title: 10 },
      default_language: "portuguese",
      language_override: "language",
      textIndexVersion: 3,
    });
  });

  it("refuses a second text index and $text without one", async () => {
    const second = await docs.createIndex({ source: "text" }).catch((e: unknown) => e);
    expect((second as MongoServerError).code).toBe(85);
    const none = await h.client
      .db("text")
      .collection("plain")
      .find({ $text: { $search: "x" } })
      .toArray()
      .catch((e: unknown) => e);
    expect((none as MongoServerError).code).toBe(27);
  });
});

describe("$text", () => {
  it("folds case and accents and stems Portuguese words (Snowball, as MongoDB)", async () => {
    expect(ids(await docs.find({ $text: { $search: "RELATORIOS" } }).toArray())).toEqual([1, 3]);
    expect(ids(await docs.find({ $text: { $search: "venda" } }).toArray())).toEqual([1, 5]);
    expect(ids(await docs.find({ $text: { $search: "ferias" } }).toArray())).toEqual([4]);
    // As on a real server: the Snowball stems of "manutenção" and "manutenções" differ (manutenca / manutenco).
    expect(
      tokenize("manutenção manutenções", "portuguese", {
        filterStopWords: true,
        caseSensitive: false,
        diacriticSensitive: false,
      }),
    ).toEqual(["manutenca", "manutenco"]);
    expect(ids(await docs.find({ $text: { $search: "manutenção manutenções" } }).toArray())).toEqual([2, 3]);
  });

  it("ignores stop words, honours phrases and negations", async () => {
    expect(await docs.find({ $text: { $search: "de da em" } }).toArray()).toEqual([]);
    expect(ids(await docs.find({ $text: { $search: '"férias coletivas"' } }).toArray())).toEqual([4]);
    expect(ids(await docs.find({ $text: { $search: "vendas -online" } }).toArray())).toEqual([1]);
    expect(ids(await docs.find({ $text: { $search: 'loja -"canal online"' } }).toArray())).toEqual([1]);
    expect(ids(await docs.find({ $text: { $search: "Vendas", $caseSensitive: true } }).toArray())).toEqual([5]);
    expect(ids(await docs.find({ $text: { $search: "fabrica", $diacriticSensitive: true } }).toArray())).toEqual([]);
  });

  it("scores by field weight and sorts by { $meta: 'textScore' }", async () => {
    const found = await docs
      .find(
        { $text: { $search: "manutenções manutenção" } },
        { projection: { score: { $meta: "textScore" }, title: 1 } },
      )
      .sort({ score: { $meta: "textScore" } })
      .toArray();
    // A title hit (weight 10) ranks above a body-only hit (weight 2).
    expect(found.map((d) => d._id)).toEqual([2, 3]);
    expect(found[0].score).toBeGreaterThan(found[1].score!);
    expect(found[0]).toEqual({ _id: 2, title: "Manutenção preventiva", score: found[0].score });
    // MongoDB's formula: title "manutenção preventiva" → 10 × 1 × (0.5 × 1/2 + 0.5) = 7.5, plus the body's
    // "plano … manutenção … máquinas … fábrica" → 2 × (0.5 × 1/4 + 0.5) = 1.25.
    expect(found[0].score).toBeCloseTo(8.75, 10);
  });

  it("combines with other conditions and pages", async () => {
    const page = await docs
      .find({ $text: { $search: "vendas loja" }, source: "loja" })
      .sort({ score: { $meta: "textScore" }, _id: 1 })
      .limit(1)
      .toArray();
    expect(page).toHaveLength(1);
    expect(await docs.countDocuments({ $text: { $search: "vendas loja" } })).toBe(2);
  });

  it("runs as the first $match of an aggregation, with $meta in later stages", async () => {
    const out = await docs
      .aggregate([
        { $match: { $text: { $search: "manutenção" } } },
        { $addFields: { score: { $meta: "textScore" } } },
        { $sort: { score: -1 } },
        { $project: { title: 1, score: 1 } },
      ])
      .toArray();
    expect(out.map((d) => d._id)).toEqual([2]);
    expect(out[0].score).toBeGreaterThan(0);
    const late = await docs
      .aggregate([{ $limit: 5 }, { $match: { $text: { $search: "x" } } }])
      .toArray()
      .catch((e: unknown) => e);
    expect(late).toBeInstanceOf(MongoServerError);
  });

  it("is served by the text index (explain), never a collection scan", async () => {
    const e = await docs.find({ $text: { $search: "vendas" } }).explain("executionStats");
    expect(e.queryPlanner.winningPlan.stage).toBe("TEXT_MATCH");
    expect(e.queryPlanner.winningPlan.indexName).toBe("texto");
    expect(JSON.stringify(e)).not.toContain("COLLSCAN");
    await h.client.db("admin").command({ setParameter: 1, notablescan: true });
    try {
      expect(await docs.find({ $text: { $search: "vendas" } }).toArray()).toHaveLength(2);
    } finally {
      await h.client.db("admin").command({ setParameter: 1, notablescan: false });
    }
  });

  it("follows inserts, updates and deletes", async () => {
    await docs.insertOne({ _id: 6, title: "Inventário", body: "Contagem de estoque" });
    expect(ids(await docs.find({ $text: { $search: "estoque" } }).toArray())).toEqual([6]);
    await docs.updateOne({ _id: 6 }, { $set: { body: "Contagem anual" } });
    expect(await docs.find({ $text: { $search: "estoque" } }).toArray()).toEqual([]);
    await docs.deleteOne({ _id: 6 });
    expect(await docs.find({ $text: { $search: "inventario" } }).toArray()).toEqual([]);
  });
});
