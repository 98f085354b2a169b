import ExcelJS from "exceljs";
import { describe, expect, it, vi } from "vitest";
import { currentUser } from "#test/auth-mock";
import { useTestDatabase } from "#test/db";
import { closestTemplate, TEMPLATE_CATALOG } from "~/platform/import/catalog.server";
import { detectTemplate } from "~/platform/import/registry";
import { loader as pageLoader } from "~/routes/captura.manual";
import { loader as downloadLoader } from "~/routes/captura.manual_.modelo.$template";

vi.mock("~/platform/auth/auth.server", () => import("#test/auth-mock"));
useTestDatabase();

const get = (path: string, template: string) =>
  downloadLoader({
    request: new Request(`http://localhost${path}`),
    params: { template },
    context: {},
  }) as Promise<Response>;

describe("/captura/manual templates", () => {
  it("lists the templates its visitor may load, with what they feed, their write mode and the download link", async () => {
    const listed = async (type: typeof currentUser.type) => {
      currentUser.type = type;
      const data = (await pageLoader({
        request: new Request("http://localhost/captura/manual"),
        params: {},
        context: {},
      })) as {
        templates: Array<{ id: string; feeds: string; modeText: string }>;
      };
      for (const t of data.templates) {
        expect(t.feeds.length).toBeGreaterThan(5);
        expect(t.modeText.length).toBeGreaterThan(5);
      }
      return data.templates.map((t) => t.id);
    };
    const everyTemplate = [
      "product",
      "channel",
      "spend",
      "planning_quantity",
      "forecast",
      "ledger",
      "hr_aux",
      "fpa_responsibles",
      "fiscal_items",
    ];
    expect(await listed("SYSTEM ADMIN")).toEqual(everyTemplate);
    expect(await listed("USER GOLD")).toEqual(everyTemplate);
    // The uploader tiers without a screen of spec 001 to write on load the master data of spec 000 only; SILVER reads
    // the HR grid but does not edit it.
    expect(await listed("USER BRONZE")).toEqual(["product", "channel", "spend"]);
    expect(await listed("USER SILVER")).toEqual(["product", "channel", "spend"]);
  });

  it("says what each upload does once: the write mode, then the rule for invalid rows, neither twice", async () => {
    currentUser.type = "SYSTEM ADMIN";
    const data = (await pageLoader({
      request: new Request("http://localhost/captura/manual"),
      params: {},
      context: {},
    })) as { templates: Array<{ id: string; modeText: string }> };
    for (const t of data.templates) {
      const times = (pattern: RegExp) => t.modeText.match(pattern)?.length ?? 0;
      expect(times(/NOK/g), `${t.id}: ${t.modeText}`).toBe(1);
      expect(times(/\bválid/gi), `${t.id}: ${t.modeText}`).toBeLessThanOrEqual(1);
      expect(times(/inválid/gi), `${t.id}: ${t.modeText}`).toBe(1);
    }
  });

  it("downloads each template as an XLSX: header and example row on sheet 1, the columns explained on sheet 2; the file is recognised", async () => {
    currentUser.type = "SYSTEM ADMIN";
    for (const info of TEMPLATE_CATALOG) {
      const response = await get(`/captura/manual/modelo/${info.id}`, info.id);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Disposition")).toContain(`modelo_${info.id}.xlsx`);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ArrayBuffer);
      const [data, help] = workbook.worksheets;
      const header = (data.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual(info.columns.map((c) => c.name));
      expect(data.rowCount).toBe(2);
      expect((help.getRow(1).values as unknown[]).slice(1)).toEqual([
        "Coluna",
        "Tipo",
        "Unidade",
        "Obrigatória",
        "Regra",
        "Descrição",
      ]);
      expect((help.getRow(2).values as unknown[])[1]).toBe(info.columns[0].name);
      // The downloaded header is recognised as its own template.
      const recognised = detectTemplate(header as string[])?.template.id;
      expect(recognised).toBe(info.id);
    }
  });

  it("answers an unknown template with 404 and refuses a user who may not upload", async () => {
    currentUser.type = "USER BRONZE";
    await expect(get("/captura/manual/modelo/nada", "nada")).rejects.toMatchObject({ status: 404 });
    await expect(get("/captura/manual/modelo/x", "x".repeat(500))).rejects.toMatchObject({ status: 404 });
    currentUser.type = "USER EXPLORER";
    await expect(get("/captura/manual/modelo/forecast", "forecast")).rejects.toMatchObject({ status: 403 });
  });

  it("refuses the template of data its visitor may not write (403, saying so)", async () => {
    currentUser.type = "USER BRONZE";
    expect((await get("/captura/manual/modelo/product", "product")).status).toBe(200);
    for (const id of ["hr_aux", "planning_quantity", "forecast", "ledger", "fpa_responsibles", "fiscal_items"]) {
      const refused = (await get(`/captura/manual/modelo/${id}`, id).then(
        () => null,
        (thrown: Response) => thrown,
      ))!;
      expect(refused.status).toBe(403);
      expect(await refused.text()).toMatch(/^Você não tem permissão para carregar /);
    }
  });

  it("names the closest template with the missing and unexpected columns", () => {
    expect(closestTemplate(["sku", "channel", "valor", "dt_ref"])).toMatchObject({
      label: "Planejamento – quantidades",
      unexpected: ["dt_ref"],
    });
    expect(closestTemplate(["CNPJ", "descricao", "channel_siop"])).toEqual({
      label: "Channel",
      missing: ["description"],
      unexpected: ["descricao"],
    });
  });
});
