import { CHANNELS, DATE_MAX, DATE_MIN, QUANTITY_MAX } from "~/models/planning.fields";
import { choiceColumn, textColumn } from "~/platform/import/column-rules";
import type { DatasetTemplate } from "~/platform/import/template";

/**
 * The upload template of planning quantities. Recognised by its header row (every column present, any order and case; platform/import/template.ts), checked
 * row by row, and applied all or nothing: a file with any NOK row changes no business data (docs/decisions.md
 * "Uploads and jobs"). app/datasets.server.ts lists it for the import pipeline.
 */

const monthStart = (iso: string) => new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, 1));

export const planningQuantityTemplate: DatasetTemplate = {
  id: "planning_quantity",
  label: "Planejamento – quantidades",
  feeds: "Planejamento de quantidades (/ij/plan, /ij/plan_edit) e prévia de relatório (/ij/report_preview)",
  writeModeText:
    "Atualiza ou inclui por (sku, channel, dateRef); as demais linhas ficam como estão. Linhas alteradas ganham nova revisão e histórico.",
  columns: [
    {
      name: "dateRef",
      rule: { kind: "month", min: monthStart(DATE_MIN), max: monthStart(DATE_MAX) },
      description: "Mês de competência",
      example: "2026-03",
    },
    {
      name: "sku",
      rule: textColumn(true, 40, {
        pattern: /^[A-Za-z0-9._-]+$/,
        patternRule: "esperado apenas letras, dígitos, ponto, hífen e sublinhado",
      }),
      unit: "código",
      description: "Código do SKU",
      example: "SKU10001",
    },
    {
      name: "channel",
      rule: choiceColumn(CHANNELS, CHANNELS.join(", ")),
      description: "Canal de venda",
      example: "WHOLESALES",
    },
    {
      name: "valor",
      rule: { kind: "integer", required: true, min: 0, max: QUANTITY_MAX },
      unit: "unidades",
      description: "Quantidade planejada",
      example: 1200,
    },
    {
      name: "material_description",
      rule: textColumn(true, 200),
      description: "Descrição do material",
      example: "Batom Matte Vermelho",
    },
    { name: "marca", rule: textColumn(true, 100), description: "Marca", example: "Marca A" },
    {
      name: "hero",
      rule: choiceColumn(["hero", "non-hero"], "hero ou non-hero"),
      description: "Produto hero",
      example: "hero",
    },
    {
      name: "abcd",
      rule: choiceColumn(["A", "B", "C", "D"], "A, B, C, D ou vazio", false),
      description: "Curva ABCD",
      example: "A",
    },
    {
      name: "plc_localsku",
      rule: textColumn(false, 100),
      description: "Ciclo de vida local (PLC Local)",
      example: "3-Released",
    },
    { name: "category_sku", rule: textColumn(false, 100), description: "Categoria", example: "Lips" },
    {
      name: "categoria_principal_sku",
      rule: textColumn(false, 100),
      description: "Categoria principal",
      example: "Makeup",
    },
    { name: "sub_categoria_sku", rule: textColumn(false, 100), description: "Subcategoria", example: "Batom" },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "upsert",
    keyColumns: ["sku", "channel", "dateRef"],
    toDoc: (r) => ({
      sku: r.sku,
      channel: r.channel,
      dateRef: r.dateRef,
      valor: r.valor,
      material_description: r.material_description,
      marca: r.marca,
      hero: r.hero,
      abcd: r.abcd,
      plc_localsku: r.plc_localsku,
      category_sku: r.category_sku,
      categoria_principal_sku: r.categoria_principal_sku,
      sub_categoria_sku: r.sub_categoria_sku,
    }),
  },
};
