import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { messages } from "~/messages";
import { type ColumnDef, DataTable, searchWith, textColumns } from "./data-table";

type Row = { id: string; cells: Record<string, string> };
const columns = textColumns<Row>([
  { key: "sku", header: "SKU" },
  { key: "marca", header: "Marca" },
]);

async function render(url: string, props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  const element = (
    <DataTable<Row>
      columns={columns}
      rows={[]}
      getRowId={(row) => row.id}
      rowCount={0}
      page={1}
      pageSize={20}
      emptyText={messages.noDataFound}
      caption="Produtos"
      {...props}
    />
  );
  return renderAt(url, element);
}

describe("DataTable", () => {
  it("shows the empty text across all columns and no page links", async () => {
    const html = await render("/repo/master-data?base=nok");
    expect(html).toContain(`<td class="data-table__empty" colSpan="2">${messages.noDataFound}</td>`);
    expect(html).toContain('<th scope="col">SKU</th>');
    expect(html).toContain('<caption class="visually-hidden">Produtos</caption>');
    expect(html).toContain(`<span class="button button--secondary" aria-disabled="true">${messages.previous}</span>`);
    expect(html).toContain(`<span class="button button--secondary" aria-disabled="true">${messages.next}</span>`);
    expect(html).toContain("0–0 / 0");
  });

  it("renders the page's rows keyed by record id, with page links that keep the other URL parameters", async () => {
    const rows: Row[] = Array.from({ length: 20 }, (_, i) => ({
      id: `id-${i + 20}`,
      cells: { sku: `S${i + 20}`, marca: "A" },
    }));
    const html = await render("/repo/master-data?base=ok&collection=product_master&page=2", {
      rows,
      rowCount: 45,
      page: 2,
    });
    expect(html).toContain('data-row-id="id-20"');
    expect(html).toContain("<td>S39</td>");
    expect(html).toContain("21–40 / 45");
    expect(html).toContain("2 / 3");
    expect(html).toContain(`href="/repo/master-data?base=ok&amp;collection=product_master&amp;page=1"`);
    expect(html).toContain(`href="/repo/master-data?base=ok&amp;collection=product_master&amp;page=3"`);
  });

  it("gives a column's cell renderer the row (record, id, index) and the value; shows a field as text", async () => {
    type Person = { id: string; name: string; age: number | null };
    const people: Person[] = [
      { id: "p1", name: "Ana", age: 31 },
      { id: "p2", name: "Bia", age: null },
    ];
    const described: ColumnDef<Person, unknown>[] = [
      { id: "name", header: () => <span className="column-label">Nome</span>, accessorKey: "name" },
      { id: "age", header: "Idade", accessorKey: "age" },
      {
        id: "about",
        header: "Sobre",
        accessorFn: (row) => row.name.toLowerCase(),
        cell: (ctx) => `${ctx.row.id}|${ctx.row.index}|${ctx.row.original.name}|${String(ctx.getValue())}`,
      },
    ];
    const html = await renderAt(
      "/x",
      <DataTable<Person>
        columns={described}
        rows={people}
        getRowId={(row) => row.id}
        rowCount={2}
        page={1}
        pageSize={20}
        emptyText={messages.noDataFound}
        caption="Pessoas"
      />,
    );
    expect(html).toContain('<th scope="col"><span class="column-label">Nome</span></th>');
    expect(html).toContain("<td>Ana</td><td>31</td><td>p1|0|Ana|ana</td>");
    expect(html).toContain("<td>Bia</td><td></td><td>p2|1|Bia|bia</td>");
  });

  it("offers page sizes through a GET form that keeps the filters and restarts at page 1", async () => {
    const html = await render("/jobs?status=0&page=3&pageSize=20", {
      rowCount: 100,
      page: 3,
      pageSizeOptions: [20, 40],
    });
    expect(html).toContain(messages.itemsPerPage);
    expect(html).toContain('<input type="hidden" name="status" value="0"/>');
    expect(html).not.toContain('name="page"');
    expect(html).toMatch(/<select[^>]*name="pageSize"/);
  });

  it("marks a row-header column, per-row cell classes and row attributes, and the table's class", async () => {
    const rows: Row[] = [
      { id: "r1", cells: { sku: "S1", marca: "A" } },
      { id: "r2", cells: { sku: "S2", marca: "B" } },
    ];
    const marked: ColumnDef<Row, unknown>[] = [
      { ...columns[0], meta: { rowHeader: true, cellClassName: "cell--sku" } },
      { ...columns[1], meta: { cellClassName: (row: Row) => `cell--${row.cells.marca}` } },
    ];
    const html = await render("/x", {
      rows,
      rowCount: 2,
      columns: marked,
      className: "products-table",
      rowAttributes: (row) => ({ className: row.id === "r2" ? "is-open" : undefined, "data-sku": row.cells.sku }),
      highlightedRowId: "r1",
    });
    expect(html).toContain('<table class="products-table">');
    expect(html).toContain('<th scope="row" class="cell--sku">S1</th><td class="cell--A">A</td>');
    expect(html).toMatch(/<tr data-row-id="r1"[^>]*class="data-table__row--highlighted"[^>]*aria-current="true"/);
    expect(html).toMatch(/<tr data-row-id="r2"[^>]*class="is-open"[^>]*data-sku="S2"/);
  });

  it("leaves the range and the pager out of a list shown whole", async () => {
    const rows: Row[] = [{ id: "r1", cells: { sku: "S1", marca: "A" } }];
    const html = await render("/x", { rows, paging: false });
    expect(html).toContain("<td>S1</td>");
    expect(html).not.toContain("data-table__footer");
    expect(html).not.toContain(messages.next);
  });

  it("edits search strings", () => {
    expect(searchWith("?a=1&page=2", { page: 3 })).toBe("?a=1&page=3");
    expect(searchWith("?a=1", { a: null })).toBe("?");
  });
});
