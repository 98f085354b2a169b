import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { expectIndexedQueries } from "#test/query-plans";
import { applyIndexes } from "~/models/all-indexes.server";
import { addExplorerDocuments, EXPLORER_DOCUMENTS } from "~/models/explorer.server";
import { SEARCH_MAX_LENGTH, SEARCH_MAX_WORDS, type Segment } from "~/models/explorer-search";
import { loader } from "~/routes/ij.explorer";
import { loader as documentLoader } from "~/routes/ij.explorer_.$id";
import { explorerTexts } from "./texts";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
const load = (query = "") =>
  loader({ request: new Request(`http://localhost/ij/explorer${query}`), params: {}, context: {} as never });
async function openDocument(id: string, query = "") {
  const result = (await documentLoader({
    request: new Request(`http://localhost/ij/explorer/${id}${query}`),
    params: { id },
    context: {} as never,
  })) as unknown as {
    data: { document: { title: Segment[]; body: Segment[]; date: string } | null };
    init?: { status?: number };
  };
  return { status: result.init?.status ?? 200, document: result.data.document };
}
const text = (segments: Segment[]) => segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join("");
const titles = (rows: Array<{ title: Segment[] }> | undefined) =>
  (rows ?? []).map((r) => r.title.map((s) => s.text).join(""));

const day = (i: number) => new Date(Date.UTC(2025, 6, 1) + i * 86_400_000);
const doc = (
  i: number,
  title: string,
  body: string,
  extra: { source?: string; category?: string; date?: Date } = {},
) => ({
  title,
  body,
  source: extra.source ?? "Intranet",
  category: extra.category ?? "Energia",
  date: extra.date ?? day(i),
});

beforeAll(async () => {
  const db = await testDb.db();
  await applyIndexes(db);
  await addExplorerDocuments([
    // 45 documents about solar generation, newest last; one source per third, two years
    ...Array.from({ length: 45 }, (_, i) =>
      doc(i, `Geração solar ${i}`, "As usinas de energia solar produziram acima do previsto.", {
        source: ["Intranet", "Ata de reunião", "Relatório semanal"][i % 3],
        date: i < 30 ? day(i) : new Date(Date.UTC(2026, 0, i)),
      }),
    ),
    doc(100, "Energia eólica", "A energia do vento e a solar dividem a matriz."),
    doc(101, "Relatório de vendas", "Vendas da loja de São Paulo.", { category: "Vendas" }),
    // Ranking: the word in the title (older) against the word in the text (newer)
    doc(102, "Manutenção preventiva das usinas", "Relatório do mês de julho.", { category: "Operações" }),
    doc(103, "Relatório mensal de julho", "A manutenção preventiva foi concluída sem interrupções.", {
      category: "Operações",
      date: day(200),
    }),
    doc(104, "Calendário de manutenções", "As manutenções programadas do trimestre.", { category: "Operações" }),
  ]);
});

beforeEach(() => {
  currentUser.type = "USER EXPLORER";
});

describe("/ij/explorer", () => {
  it("searches nothing until a term is given; punctuation or operators alone are no term", async () => {
    expect((await load()).results).toBeNull();
    for (const q of ["?!.,", "$$ {} .* ^$", "—"])
      expect((await load(`?search=${encodeURIComponent(q)}`)).results).toBeNull();
  });

  it("finds the documents holding every word, ignoring case, accents and punctuation, 20 a page", async () => {
    const data = await load("?search=ENERGIA%2C+solar!");
    expect(data.results?.total).toBe(46);
    expect(data.results?.rows).toHaveLength(20);
    expect(titles((await load("?search=venda+loja")).results?.rows)).toEqual(["Relatório de vendas"]);
    expect((await load("?search=energia+vendas")).results?.total).toBe(0);
  });

  it("ranks a title hit above a text hit, and equal scores newest first", async () => {
    const rows = (await load("?search=preventiva")).results?.rows;
    expect(titles(rows)).toEqual(["Manutenção preventiva das usinas", "Relatório mensal de julho"]);
    const solar = titles((await load("?search=geração+solar")).results?.rows);
    expect(solar[0]).toBe("Geração solar 44");
    expect(solar.slice(0, 3)).toEqual(["Geração solar 44", "Geração solar 43", "Geração solar 42"]);
  });

  it("finds plural and singular, with or without accents, and the start of the last word", async () => {
    const expected = [
      "Calendário de manutenções",
      "Manutenção preventiva das usinas",
      "Relatório mensal de julho",
    ].sort();
    for (const q of ["manutenção", "manutenções", "MANUTENCAO", "manut"]) {
      expect(titles((await load(`?search=${encodeURIComponent(q)}`)).results?.rows).sort(), q).toEqual(expected);
    }
    expect((await load("?search=usinas+manut")).results?.total).toBe(1);
  });

  it("marks the matched words in the title and in a snippet of the text", async () => {
    const row = (await load("?search=manutencao")).results!.rows.find(
      (r) => titles([r])[0] === "Relatório mensal de julho",
    )!;
    expect(text(row.snippet)).toBe("A [manutenção] preventiva foi concluída sem interrupções.");
    const plural = (await load("?search=manut")).results!.rows.find(
      (r) => titles([r])[0] === "Calendário de manutenções",
    )!;
    expect(text(plural.title)).toBe("Calendário de [manutenções]");
  });

  it("with Frase Exata finds only the words in that order", async () => {
    const data = await load("?search=energia+solar&exactPh=1");
    expect(data.exact).toBe(true);
    expect(data.results?.total).toBe(45);
    expect(titles(data.results?.rows).every((t) => t.startsWith("Geração solar"))).toBe(true);
    expect(text(data.results!.rows[0].snippet)).toBe("As usinas de [energia solar] produziram acima do previsto.");
  });

  it("counts facets from the data and narrows by them, each facet counted under the others' choices", async () => {
    const all = await load("?search=solar");
    expect(all.results?.facets.source).toEqual([
      { value: "Intranet", count: 16 },
      { value: "Ata de reunião", count: 15 },
      { value: "Relatório semanal", count: 15 },
    ]);
    expect(all.results?.facets.year).toEqual([
      { value: "2026", count: 15 },
      { value: "2025", count: 31 },
    ]);
    const narrowed = await load("?search=solar&source=Ata+de+reuni%C3%A3o&year=2026");
    expect(narrowed.results?.total).toBe(5);
    expect(narrowed.filters).toEqual({ source: "Ata de reunião", year: "2026" });
    expect(narrowed.results?.facets.source.find((f) => f.value === "Intranet")?.count).toBe(5);
    expect(narrowed.results?.facets.year).toEqual([
      { value: "2026", count: 5 },
      { value: "2025", count: 10 },
    ]);
    expect((await load("?search=solar&category=%7B%22%24ne%22%3A%22%22%7D")).results?.total).toBe(0);
    expect((await load("?search=solar&year=%24gt")).results?.total).toBe(46);
  });

  it("tells which words were not searched: common words, words past the limit, a text cut short", async () => {
    const common = await load("?search=energia+de+o+solar");
    expect(common.results?.total).toBe(46);
    expect(common.notices).toEqual([explorerTexts.commonWordsIgnored(["de", "o"])]);
    const many = Array.from({ length: SEARCH_MAX_WORDS + 2 }, (_, i) => (i === 0 ? "solar" : `palavra${i}`));
    const long = await load(`?search=${many.join("+")}`);
    expect(long.notices).toContain(explorerTexts.wordsDropped(SEARCH_MAX_WORDS, many.slice(SEARCH_MAX_WORDS)));
    const huge = await load(`?search=solar+${"x".repeat(10_000)}`);
    expect(huge.search).toHaveLength(SEARCH_MAX_LENGTH);
    expect(huge.notices).toContain(explorerTexts.textCut(SEARCH_MAX_LENGTH));
    expect(huge.results?.total).toBe(0);
  });

  it("pages with 20 or 40 rows, and a page past the end shows the last page", async () => {
    const second = await load("?search=solar&page=2");
    expect(second.results).toMatchObject({ page: 2, pageSize: 20, total: 46 });
    expect((await load("?search=solar&pageSize=40&page=2")).results?.rows).toHaveLength(6);
    const beyond = await load("?search=solar&page=99");
    expect(beyond.results).toMatchObject({ page: 3, pageSize: 20 });
    expect(beyond.results?.rows).toHaveLength(6);
    expect((await load("?search=solar&page=abc&pageSize=30")).results).toMatchObject({ page: 1, pageSize: 20 });
  });

  it("keeps operators and regular-expression characters as plain words", async () => {
    expect((await load(`?search=${encodeURIComponent('{"$where":"1"} .* solar')}`)).results?.total).toBe(0);
    expect((await load(`?search=${encodeURIComponent("sol.r|(usinas)")}`)).results?.total).toBe(0);
    expect((await load(`?search=${encodeURIComponent("solar (usinas)")}`)).results?.total).toBe(45);
  });

  it("answers every search from indexes (text index and vocabulary), never a collection scan", async () => {
    const db = await testDb.db();
    await expectIndexedQueries(
      db,
      async () => {
        await load("?search=manut");
        await load("?search=energia+solar&exactPh=1&source=Intranet&page=2");
        await load("?search=gera%C3%A7%C3%B5es+de+energia&year=2025");
      },
      { minDocuments: 10 },
    );
  });

  it("is refused to types the spec does not list", async () => {
    currentUser.type = "USER BRONZE";
    await expect(load("?search=solar")).rejects.toMatchObject({ status: 403 });
  });
});

describe("/ij/explorer/{id}", () => {
  it("shows the whole document with the search's words marked", async () => {
    const db = await testDb.db();
    const target = (await db.collection(EXPLORER_DOCUMENTS).findOne({ title: "Calendário de manutenções" }))!;
    const { status, document } = await openDocument(String(target._id), "?search=manuten%C3%A7%C3%A3o&page=1");
    expect(status).toBe(200);
    expect(text(document!.title)).toBe("Calendário de [manutenções]");
    expect(text(document!.body)).toBe("As [manutenções] programadas do trimestre.");
    const plain = await openDocument(String(target._id));
    expect(text(plain.document!.body)).toBe("As manutenções programadas do trimestre.");
  });

  it("answers an unknown or malformed id with 404 and a message", async () => {
    for (const id of ["0123456789abcdef01234567", "x", '{"$ne":null}', "a".repeat(5000)]) {
      const { status, document } = await openDocument(id);
      expect(status, id).toBe(404);
      expect(document).toBeNull();
    }
  });
});
