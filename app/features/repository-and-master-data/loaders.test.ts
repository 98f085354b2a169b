import { Db } from "mongodb";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { thrownResponse as thrown } from "#test/answers";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { FILES } from "~/models/files.server";
import {
  CHANNEL,
  CHANNEL_NOK,
  MASTER_DATA_COLLECTIONS,
  PLANNING_SPEND,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { loader as indexLoader } from "~/routes/repo.master-data._index";
import { loader as canalLoader } from "~/routes/repo.master-data.canal";
import { loader as planejamentoLoader } from "~/routes/repo.master-data.planejamento";
import { LOCAL_BUCKET } from "~/services/storage.server";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));

const testDb = useTestDatabase();
const args = (path: string) => ({ request: new Request(`http://localhost${path}`), params: {}, context: {} as never });

beforeAll(async () => {
  const db = await testDb.db();
  await db.collection(MASTER_DATA_COLLECTIONS).insertMany([
    {
      collection_name: PRODUCT_MASTER,
      label_name: "Product",
      collection_ok: 1,
      order: 1,
      fields: [{ sku: "SKU" }, { data_validade_sku: "Global Forecast End Date" }],
    },
    {
      collection_name: PRODUCT_MASTER_NOK,
      label_name: "Product NOK",
      collection_ok: 0,
      order: 2,
      fields: [{ sku: "SKU" }, { Error: "Erro" }],
    },
    { collection_name: CHANNEL, label_name: "Channel", collection_ok: 1, order: 3, fields: [{ cnpj: "CNPJ" }] },
    {
      collection_name: CHANNEL_NOK,
      label_name: "Channel NOK",
      collection_ok: 0,
      order: 4,
      fields: [{ Error: "Erro" }],
    },
  ]);
  await db.collection(PRODUCT_MASTER).insertMany(
    Array.from({ length: 25 }, (_, i) => ({
      sku: `P${String(i).padStart(2, "0")}`,
      data_validade_sku: new Date(Date.UTC(2026, 5, 30)),
      secret: "x",
    })),
  );
  await db
    .collection(CHANNEL)
    .insertMany([
      { cnpj: "12.345.678/0001-90", description: "Varejo", channel_siop: "VRJ", urlPath: "a.csv", extra: 1 },
    ]);
  await db
    .collection(PLANNING_SPEND)
    .insertOne({ channel: "Varejo", marca: "Alpha", yearMonthDay: "20250101", urlPath: "s.csv" });
  await db.collection("users").insertOne({ user: "secret@example.com" });
  await db.collection("sessions").insertOne({ token: "secret-token" });
});

beforeEach(() => {
  currentUser.type = "USER GOLD";
});

describe("/repo/master-data", () => {
  it("loads the first Ok collection by itself, with its fields as columns and 20 rows", async () => {
    const data = await indexLoader(args("/repo/master-data"));
    expect(data.base).toBe("ok");
    expect(data.collections).toEqual([
      { name: PRODUCT_MASTER, label: "Product" },
      { name: CHANNEL, label: "Channel" },
    ]);
    expect(data.collection).toBe(PRODUCT_MASTER);
    expect(data.table.columns).toEqual([
      { key: "sku", header: "SKU" },
      { key: "data_validade_sku", header: "Global Forecast End Date" },
    ]);
    expect(data.table.count).toBe(25);
    expect(data.table.rows).toHaveLength(20);
    // Newest first: the last row written is on top.
    expect(data.table.rows[0].cells).toEqual({ sku: "P24", data_validade_sku: "30/06/2026" });
  });

  it("pages with the page in the URL; a page past the end is the last page", async () => {
    const data = await indexLoader(args("/repo/master-data?base=ok&collection=product_master&page=2"));
    expect(data.table.page).toBe(2);
    expect(data.table.rows.map((r) => r.cells.sku)).toEqual(["P04", "P03", "P02", "P01", "P00"]);
    const beyond = await indexLoader(args("/repo/master-data?base=ok&collection=product_master&page=999"));
    expect(beyond.table.page).toBe(2);
    expect(beyond.table.rows.map((r) => r.cells.sku)).toEqual(["P04", "P03", "P02", "P01", "P00"]);
  });

  it("narrows a base to one file's rows, in the file's line order; newest file first otherwise", async () => {
    const db = await testDb.db();
    const older = Array.from({ length: 3 }, (_, i) => ({
      sku: `OLD${i}`,
      _lineNumber: i + 2,
      urlPath: "2030/04/old.csv",
      Error: "x",
    }));
    const newer = Array.from({ length: 3 }, (_, i) => ({
      sku: `NEW${i}`,
      _lineNumber: i + 2,
      urlPath: "2030/05/new.csv",
      Error: "x",
    }));
    await db.collection(PRODUCT_MASTER_NOK).insertMany(older);
    await db.collection(PRODUCT_MASTER_NOK).insertMany(newer);
    try {
      const all = await indexLoader(args("/repo/master-data?base=nok&collection=product_master_nok"));
      expect(all.table.rows.map((r) => r.cells.sku)).toEqual(["NEW2", "NEW1", "NEW0", "OLD2", "OLD1", "OLD0"]);
      expect(all.file).toBeNull();
      const one = await indexLoader(
        args(`/repo/master-data?base=nok&collection=product_master_nok&file=${encodeURIComponent("2030/04/old.csv")}`),
      );
      expect(one.file).toBe("2030/04/old.csv");
      expect(one.table.count).toBe(3);
      expect(one.table.rows.map((r) => r.cells.sku)).toEqual(["OLD0", "OLD1", "OLD2"]);
      // Whatever is typed is a value compared by equality, never an operator.
      const odd = await indexLoader(
        args(`/repo/master-data?base=nok&collection=product_master_nok&file=${encodeURIComponent('{"$ne":null}')}`),
      );
      expect(odd.table.count).toBe(0);
      const canal = await canalLoader(args("/repo/master-data/canal?tab=channel&file=a.csv"));
      expect([canal.file, canal.table.count]).toEqual(["a.csv", 1]);
      const quantityNok = await planejamentoLoader(
        args("/repo/master-data/planejamento?tab=quantity_nok&file=2030%2F05%2Fnew.csv"),
      );
      expect(quantityNok.table.rows.map((r) => r.cells.sku)).toEqual(["NEW0", "NEW1", "NEW2"]);
    } finally {
      await db.collection(PRODUCT_MASTER_NOK).deleteMany({});
    }
  });

  it("switches to the NOK bases and shows an empty one as empty", async () => {
    const data = await indexLoader(args("/repo/master-data?base=nok"));
    expect(data.collections.map((c) => c.name)).toEqual([PRODUCT_MASTER_NOK, CHANNEL_NOK]);
    expect(data.collection).toBe(PRODUCT_MASTER_NOK);
    expect(data.table).toMatchObject({ rows: [], count: 0 });
  });

  it("sends a collection of the other base back to the chosen base's first collection", async () => {
    const response = await thrown(indexLoader(args("/repo/master-data?base=nok&collection=product_master&page=3")));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/repo/master-data?base=nok");
  });

  it("answers 404 for a collection outside the list, never opening it", async () => {
    // Every collection the loader asks the driver for, whatever it then does with it.
    const opened: string[] = [];
    const original = Db.prototype.collection;
    const spy = vi.spyOn(Db.prototype, "collection").mockImplementation(function (
      this: Db,
      name: string,
      options?: object,
    ) {
      opened.push(name);
      return original.call(this, name, options);
    });
    try {
      // "planning_spend" is an allowed name, but not in this tenant's catalogue.
      for (const name of ["users", "sessions", "planning_spend", "$where", "product_master.x"]) {
        opened.length = 0;
        const response = await thrown(indexLoader(args(`/repo/master-data?collection=${encodeURIComponent(name)}`)));
        expect(response.status, name).toBe(404);
        expect(opened, name).toEqual([MASTER_DATA_COLLECTIONS]);
      }
      // The spy sees the reads of an accepted name, so the empty lists above mean something.
      opened.length = 0;
      await indexLoader(args(`/repo/master-data?collection=${CHANNEL}`));
      expect(opened).toContain(CHANNEL);
    } finally {
      spy.mockRestore();
    }
  });

  it("treats an empty collection as no choice, and a bad base or page as the defaults", async () => {
    expect((await indexLoader(args("/repo/master-data?collection="))).collection).toBe(PRODUCT_MASTER);
    const fallback = await indexLoader(args("/repo/master-data?base=maybe&page=-4"));
    expect(fallback.base).toBe("ok");
    expect(fallback.table.page).toBe(1);
    expect(fallback.table.rows[0].cells.sku).toBe("P24");
    expect((await indexLoader(args("/repo/master-data?page=1e3"))).table.page).toBe(1);
  });

  it("is 403 for a type without Repository Master", async () => {
    currentUser.type = "USER SILVER";
    expect((await thrown(indexLoader(args("/repo/master-data")))).status).toBe(403);
    expect((await thrown(canalLoader(args("/repo/master-data/canal")))).status).toBe(403);
    expect((await thrown(planejamentoLoader(args("/repo/master-data/planejamento")))).status).toBe(403);
  });
});

describe("/repo/master-data/canal", () => {
  it("shows Channel with its columns, and Channel NOK empty", async () => {
    const channel = await canalLoader(args("/repo/master-data/canal"));
    expect(channel.tab.id).toBe("channel");
    expect(channel.tabs.map((t) => t.label)).toEqual(["Channel", "Channel NOK"]);
    expect(channel.table.columns.map((c) => c.key)).toEqual(["cnpj", "description", "channel_siop", "urlPath"]);
    expect(channel.table.rows[0].cells).toEqual({
      cnpj: "12.345.678/0001-90",
      description: "Varejo",
      channel_siop: "VRJ",
      urlPath: "a.csv",
    });
    const nok = await canalLoader(args("/repo/master-data/canal?tab=channel_nok"));
    expect(nok.table.columns.map((c) => c.key)).toEqual(["urlPath", "creationDate", "Error"]);
    expect(nok.table.count).toBe(0);
    expect((await canalLoader(args("/repo/master-data/canal?tab=users"))).tab.id).toBe("channel");
    const badPage = await canalLoader(args("/repo/master-data/canal?tab=channel&page=zero"));
    expect(badPage.table.page).toBe(1);
    expect(badPage.table.count).toBe(1);
  });
});

describe("/repo/master-data/planejamento", () => {
  it("has the inner tabs Quantity, Quantity NOK, Spend and Spend NOK, the tab in the URL, and labelled columns", async () => {
    const quantity = await planejamentoLoader(args("/repo/master-data/planejamento"));
    expect(quantity.tabs.map((t) => [t.label, t.to])).toEqual([
      ["Quantity", "?tab=quantity"],
      ["Quantity NOK", "?tab=quantity_nok"],
      ["Spend", "?tab=spend"],
      ["Spend NOK", "?tab=spend_nok"],
    ]);
    expect(quantity.tab.id).toBe("quantity");
    expect(quantity.table.columns.find((c) => c.key === "data_validade_sku")?.header).toBe("Global Forecast End Date");
    expect(quantity.table.columns.find((c) => c.key === "categoria_principal_sku")?.header).toBe("Major Category");
    // English only where the spec shows it (Brand, Category, Major Category…); the portal's own labels in Portuguese.
    expect(quantity.table.columns.find((c) => c.key === "material_description")?.header).toBe("Descrição do material");
    expect(quantity.table.columns.find((c) => c.key === "sub_categoria_sku")?.header).toBe("Subcategoria");
    expect(quantity.table.columns.every((c) => c.header !== c.key || c.key === "hero")).toBe(true);
    expect(quantity.table.columns).toHaveLength(12);
    expect(quantity.table.count).toBe(25);

    const quantityNok = await planejamentoLoader(args("/repo/master-data/planejamento?tab=quantity_nok"));
    expect(quantityNok.table.columns.map((c) => c.key)).toEqual([
      "sku",
      "_lineNumber",
      "urlPath",
      "timeStamp",
      "Error",
    ]);
    expect(quantityNok.table.columns.map((c) => c.header)).toEqual(["SKU", "Linha", "Arquivo", "Data", "Erro"]);

    const spend = await planejamentoLoader(args("/repo/master-data/planejamento?tab=spend"));
    expect(spend.table.columns.map((c) => c.key)).toEqual(["channel", "marca", "yearMonthDay", "urlPath"]);
    expect(spend.table.rows[0].cells.yearMonthDay).toBe("20250101");

    const spendNok = await planejamentoLoader(args("/repo/master-data/planejamento?tab=spend_nok"));
    expect(spendNok.table.count).toBe(0);
    expect(spendNok.table.columns.map((c) => c.key)).toEqual([
      "channel",
      "marca",
      "yearMonthDay",
      "_lineNumber",
      "urlPath",
      "timeStamp",
      "Error",
    ]);

    // An unknown tab is Quantity; the former `top` parameter changes nothing; a bad page is 1.
    const unknown = await planejamentoLoader(args("/repo/master-data/planejamento?top=planning&tab=users&page=x"));
    expect([unknown.tab.id, unknown.table.page]).toEqual(["quantity", 1]);
    expect(
      (await planejamentoLoader(args("/repo/master-data/planejamento?tab=quantity&page=2"))).table.rows.map(
        (r) => r.cells.sku,
      ),
    ).toEqual(["P04", "P03", "P02", "P01", "P00"]);
  });
});

describe("the file of a row, by the name it was uploaded under", () => {
  const KEY = "2026/11/16efd6cd-1708-4db3-9541-d68500af5728.csv";
  const NAME = "held_out_product_master_1795550051239.csv";

  beforeAll(async () => {
    const db = await testDb.db();
    await db.collection(FILES).insertOne({
      originalName: NAME,
      originalFile: KEY,
      bucket: LOCAL_BUCKET,
      user: "gold@example.com",
      clientName: "journey",
      statusChangeDate: new Date(),
      createdAt: new Date(),
      status: 0,
      progress: 100,
      message: "",
      agent: "",
      leaseUntil: null,
      attempts: 1,
    });
    await db.collection(CHANNEL_NOK).insertMany([
      { cnpj: "1", urlPath: KEY, creationDate: new Date(), Error: "e1" },
      { cnpj: "2", urlPath: KEY, creationDate: new Date(), Error: "e2" },
      { cnpj: "3", urlPath: "master-data/channel/CHANNEL_20261105.xlsx", creationDate: new Date(), Error: "e3" },
    ]);
  });

  it("names an uploaded file by its original name, linked to its download, its key as a tooltip; a seeded path stays as it is", async () => {
    const data = await canalLoader(args("/repo/master-data/canal?tab=channel_nok"));
    const uploaded = data.table.rows.filter((r) => r.cells.urlPath === KEY);
    expect(uploaded).toHaveLength(2);
    for (const row of uploaded) {
      expect(row.file?.name).toBe(NAME);
      expect(row.file?.key).toBe(KEY);
      expect(row.file?.href).toMatch(/^\/download\//);
    }
    expect(data.table.rows.find((r) => r.cells.Error === "e3")?.file).toBeNull();
  });

  it("narrows the table by the original name as well as by the path", async () => {
    const byName = await canalLoader(args(`/repo/master-data/canal?tab=channel_nok&file=${encodeURIComponent(NAME)}`));
    expect(byName.table.rows.map((r) => r.cells.Error).sort()).toEqual(["e1", "e2"]);
    const byPath = await canalLoader(args(`/repo/master-data/canal?tab=channel_nok&file=${encodeURIComponent(KEY)}`));
    expect(byPath.table.rows.map((r) => r.cells.Error).sort()).toEqual(["e1", "e2"]);
    const other = await canalLoader(args("/repo/master-data/canal?tab=channel_nok&file=nada.csv"));
    expect(other.table.count).toBe(0);
  });
});
