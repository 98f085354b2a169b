import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { applyIndexes } from "~/models/all-indexes.server";
import { EXPLORER_DOCUMENTS, explorerSearchFields } from "~/models/explorer.server";
import { loader } from "~/routes/ij.explorer";
import { currentUser } from "../auth-mock";
import { useTestDatabase } from "../db";

vi.mock("~/auth.server", () => import("../auth-mock"));

const testDb = useTestDatabase();
const load = (query = "") => loader({ request: new Request(`http://localhost/ij/explorer${query}`), params: {}, context: {} as never });

function doc(i: number, title: string, body: string) {
  return {
    title,
    body,
    source: "Intranet",
    category: "Energia",
    date: new Date(Date.UTC(2026, 0, 1) + i * 86_400_000),
    ...explorerSearchFields(title, body),
  };
}

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  await db.collection(EXPLORER_DOCUMENTS).insertMany([
    // 45 documents about solar generation, newest last
    ...Array.from({ length: 45 }, (_, i) => doc(i, `Geração solar ${i}`, "As usinas de energia solar produziram acima do previsto.")),
    doc(100, "Energia eólica", "A energia do vento e a solar dividem a matriz."),
    doc(101, "Relatório de vendas", "Vendas da loja de São Paulo."),
  ]);
});

beforeEach(() => {
  currentUser.type = "USER EXPLORER";
});

describe("/ij/explorer", () => {
  it("searches nothing until a term is given", async () => {
    const data = await load();
    expect(data.results).toBeNull();
    expect((await load("?search=%3F%21.%2C")).results).toBeNull(); // punctuation only
  });

  it("finds every document holding all the words, ignoring case, accents and punctuation, newest first, 20 a page", async () => {
    const data = await load("?search=ENERGIA%2C+solar!");
    expect(data.query).toEqual({ words: ["energia", "solar"], exact: false });
    expect(data.results?.total).toBe(46);
    expect(data.results?.rows).toHaveLength(20);
    expect(data.results?.rows[0].title).toBe("Energia eólica");
    expect(data.results?.rows[1].title).toBe("Geração solar 44");
    expect(data.results?.rows[0].date).toBe("11/04/2026");
  });

  it("with Frase Exata finds only the words in that order", async () => {
    const data = await load("?search=energia+solar&exactPh=1");
    expect(data.exact).toBe(true);
    expect(data.results?.total).toBe(45);
    expect(data.results?.rows.every((r) => r.title.startsWith("Geração solar"))).toBe(true);
  });

  it("pages with 20 or 40 rows, and a page past the end shows the last page", async () => {
    const second = await load("?search=solar&page=2");
    expect(second.results).toMatchObject({ page: 2, pageSize: 20, total: 46 });
    expect(second.results?.rows).toHaveLength(20);
    const forty = await load("?search=solar&pageSize=40&page=2");
    expect(forty.results).toMatchObject({ page: 2, pageSize: 40 });
    expect(forty.results?.rows).toHaveLength(6);
    const beyond = await load("?search=solar&page=99");
    expect(beyond.results).toMatchObject({ page: 3, pageSize: 20 });
    expect(beyond.results?.rows).toHaveLength(6);
  });

  it("falls back to page 1 and 20 rows on malformed paging, and answers an unknown word with no rows", async () => {
    const data = await load("?search=solar&page=abc&pageSize=30");
    expect(data.results).toMatchObject({ page: 1, pageSize: 20 });
    const none = await load("?search=hidrogenio");
    expect(none.results).toMatchObject({ total: 0, rows: [] });
  });

  it("keeps MongoDB operators in the search text as plain words", async () => {
    const data = await load(`?search=${encodeURIComponent('{"$where":"1"} .* solar')}`);
    expect(data.query?.words).toEqual(["where", "1", "solar"]);
    expect(data.results?.total).toBe(0);
  });

  it("is refused to types the spec does not list", async () => {
    currentUser.type = "USER BRONZE";
    await expect(load("?search=solar")).rejects.toMatchObject({ status: 403 });
  });
});
