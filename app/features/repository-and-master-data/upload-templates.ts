import {
  CHANNEL,
  CHANNEL_NOK,
  MASTER_DATA_EDITABLE_FIELDS,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
} from "~/models/master-data.server";
import { type ColumnRule, choiceRule } from "~/platform/import/rules";
import type { MasterDataTemplate, TemplateColumn } from "~/platform/import/template";

/**
 * Spec 000's master-data templates (docs/decisions.md "Uploads and jobs"): valid rows are kept, invalid ones go
 * to the NOK base with their Error. Their columns are the editable fields of each base, in this order
 * (MASTER_DATA_EDITABLE_FIELDS); the rules:
 *
 * product / planning quantity master
 *   sku                       required, letters and digits only, up to 40 characters
 *   material_description      required, up to 200 characters
 *   marca                     required, up to 100 characters
 *   category_sku, categoria_principal_sku, sub_categoria_sku, plc_local, plc_global
 *                             optional, up to 100 characters
 *   hero                      required, "hero" or "non-hero" (any case; stored lower-case)
 *   abcd                      A, B, C, D (any case; stored upper-case) or empty
 *   data_validade_sku         required date: YYYY-MM-DD, DD/MM/YYYY, YYYYMMDD or an XLSX date
 * channel
 *   cnpj                      required, 14 digits (dots, slash and dash ignored) with valid check digits;
 *                             stored as the 14 digits
 *   description               optional, up to 200 characters
 *   channel_siop              required, up to 100 characters
 * planning spend
 *   channel                   required, one of WHOLESALES, BRANDSITE, ONLINE_PARTNERS, FSS (any case; stored upper-case)
 *   marca                     required, up to 100 characters
 *   yearMonthDay              required date, YYYYMMDD or YYYY-MM-DD; stored as YYYYMMDD
 */

const optionalText = (max: number): ColumnRule => ({ kind: "text", required: false, max });
const requiredText = (max: number): ColumnRule => ({ kind: "text", required: true, max });

// What becomes of invalid rows is said beside it (templateTexts.okNokNote), not here.
const ROWS_WITH_NOK_TEXT = "Carrega as linhas na base Ok do cadastro.";

/** The columns in the base's editable-field order; a field without a column here is a mistake in this file. */
function inFieldOrder(
  collection: keyof typeof MASTER_DATA_EDITABLE_FIELDS,
  columns: readonly TemplateColumn[],
): TemplateColumn[] {
  const fields = MASTER_DATA_EDITABLE_FIELDS[collection];
  if (columns.length !== fields.length) throw new Error(`The ${collection} template has columns that are no fields`);
  return fields.map((name) => {
    const column = columns.find((c) => c.name === name);
    if (!column) throw new Error(`No column ${name} in the ${collection} template`);
    return column;
  });
}

export const productTemplate: MasterDataTemplate = {
  id: "product",
  label: "Product master",
  title: "Mestre de produtos (Product master)",
  feeds:
    "Repository Master (/repo/master-data, /repo/master-data/planejamento) e os filtros de planejamento (/ij/plan)",
  writeModeText: ROWS_WITH_NOK_TEXT,
  columns: inFieldOrder(PRODUCT_MASTER, [
    {
      name: "sku",
      rule: {
        kind: "text",
        required: true,
        max: 40,
        pattern: /^[A-Za-z0-9]+$/,
        patternRule: "esperado apenas letras e dígitos",
      },
      unit: "código",
      description: "Código do SKU",
      example: "SKU10001",
    },
    {
      name: "material_description",
      rule: requiredText(200),
      description: "Descrição do material",
      example: "Batom Matte Vermelho",
    },
    { name: "marca", rule: requiredText(100), description: "Marca", example: "Marca A" },
    { name: "category_sku", rule: optionalText(100), description: "Categoria", example: "Lips" },
    { name: "categoria_principal_sku", rule: optionalText(100), description: "Categoria principal", example: "Makeup" },
    { name: "sub_categoria_sku", rule: optionalText(100), description: "Subcategoria", example: "Batom" },
    {
      name: "hero",
      rule: choiceRule(["hero", "non-hero"], "hero ou non-hero", { stored: "lower-case" }),
      description: "Produto hero",
      example: "hero",
    },
    {
      name: "abcd",
      rule: choiceRule(["A", "B", "C", "D"], "A, B, C, D ou vazio", { required: false, stored: "upper-case" }),
      description: "Curva ABCD",
      example: "A",
    },
    { name: "plc_local", rule: optionalText(100), description: "Ciclo de vida local", example: "3-Released" },
    { name: "plc_global", rule: optionalText(100), description: "Ciclo de vida global", example: "3-Released" },
    {
      name: "data_validade_sku",
      rule: { kind: "date" },
      description: "Global Forecast End Date",
      example: "2027-12-31",
    },
  ]),
  load: {
    mode: "rows-with-nok",
    okCollection: PRODUCT_MASTER,
    nokCollection: PRODUCT_MASTER_NOK,
    nokTimeField: "timeStamp",
    // The planning filter reads a product's PLC Local as plc_localsku and the SKU-hero key as skherou (spec 001 §3).
    derive: (doc) => {
      doc.skherou = `${doc.sku}-${doc.hero}`;
      doc.plc_localsku = doc.plc_local;
    },
  },
};

export const channelTemplate: MasterDataTemplate = {
  id: "channel",
  label: "Channel",
  title: "Canal (Channel)",
  feeds: "Repository Master – Canal (/repo/master-data/canal)",
  writeModeText: ROWS_WITH_NOK_TEXT,
  columns: inFieldOrder(CHANNEL, [
    { name: "cnpj", rule: { kind: "cnpj" }, description: "CNPJ do canal", example: "11.222.333/0001-81" },
    { name: "description", rule: optionalText(200), description: "Descrição", example: "Loja parceira" },
    { name: "channel_siop", rule: requiredText(100), description: "Canal SIOP", example: "ONLINE_PARTNERS" },
  ]),
  load: {
    mode: "rows-with-nok",
    okCollection: CHANNEL,
    nokCollection: CHANNEL_NOK,
    nokTimeField: "creationDate",
  },
};

const SPEND_CHANNELS = ["WHOLESALES", "BRANDSITE", "ONLINE_PARTNERS", "FSS"] as const;

export const spendTemplate: MasterDataTemplate = {
  id: "spend",
  label: "Planning spend",
  title: "Planejamento – spend (Planning spend)",
  feeds: "Repository Master – Planejamento (/repo/master-data/planejamento, abas Spend)",
  writeModeText: ROWS_WITH_NOK_TEXT,
  columns: inFieldOrder(PLANNING_SPEND, [
    {
      name: "channel",
      rule: choiceRule(SPEND_CHANNELS, "WHOLESALES, BRANDSITE, ONLINE_PARTNERS ou FSS", { stored: "upper-case" }),
      description: "Canal",
      example: "WHOLESALES",
    },
    { name: "marca", rule: requiredText(100), description: "Marca", example: "Marca A" },
    { name: "yearMonthDay", rule: { kind: "yearMonthDay" }, description: "Versão", example: "20260301" },
  ]),
  load: {
    mode: "rows-with-nok",
    okCollection: PLANNING_SPEND,
    nokCollection: PLANNING_SPEND_NOK,
    nokTimeField: "timeStamp",
  },
};
