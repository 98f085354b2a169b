import { canUploadTo, type PermissionType, type UploadTargetId } from "~/access";
import { accessContext } from "~/config.server";
import { DATASET_TEMPLATES, type DatasetTemplate } from "./datasets/definitions";
import { checkCell, ruleDescription, ruleRequired, ruleType } from "./datasets/rules";
import { exampleCells } from "./example-row";
import { channelTemplate, checkRow, normalizeHeader, productTemplate, spendTemplate, type Template } from "./templates";
import type { CellValue } from "./values";

/**
 * Every upload template /captura/manual offers, as the page lists them and the XLSX download describes them: the three
 * master-data templates of spec 000 (valid rows kept, invalid ones in the NOK base) and the six all-or-nothing templates
 * of the spec-001 datasets (import/datasets). Also the closest template to a header row that matches none.
 */

export type TemplateColumnInfo = {
  name: string;
  type: string;
  unit: string;
  required: boolean;
  rule: string;
  description: string;
  example: string | number;
};

export type TemplateInfo = {
  /** Also its upload target (access.ts UPLOAD_TARGET_ACCESS): who may load it. */
  id: UploadTargetId;
  label: string;
  feeds: string;
  writeModeText: string;
  allOrNothing: boolean;
  columns: TemplateColumnInfo[];
};

type MasterColumnDoc = Omit<TemplateColumnInfo, "name">;

const masterText = (max: number, required: boolean, description: string, example: string): MasterColumnDoc => ({
  type: "texto",
  unit: "",
  required,
  rule: `texto, até ${max} caracteres`,
  description,
  example,
});
const DATE_RULE = "data: AAAA-MM-DD, DD/MM/AAAA, AAAAMMDD ou data do Excel";

/** The columns of the spec-000 templates, as their rules (templates.ts) check them. */
const MASTER_DOCS: Record<
  Template["id"],
  { feeds: string; title: string; writeModeText: string; columns: Record<string, MasterColumnDoc> }
> = {
  product: {
    title: "Mestre de produtos (Product master)",
    feeds:
      "Repository Master (/repo/master-data, /repo/master-data/planejamento) e os filtros de planejamento (/ij/plan)",
    writeModeText: "Inclui as linhas válidas na base Ok; as inválidas vão para a base NOK com o erro.",
    columns: {
      sku: {
        ...masterText(40, true, "Código do SKU", "SKU10001"),
        rule: "texto, até 40 caracteres; apenas letras e dígitos",
      },
      material_description: masterText(200, true, "Descrição do material", "Batom Matte Vermelho"),
      marca: masterText(100, true, "Marca", "Marca A"),
      category_sku: masterText(100, false, "Categoria", "Lips"),
      categoria_principal_sku: masterText(100, false, "Categoria principal", "Makeup"),
      sub_categoria_sku: masterText(100, false, "Subcategoria", "Batom"),
      hero: {
        type: "lista",
        unit: "",
        required: true,
        rule: "hero ou non-hero",
        description: "Produto hero",
        example: "hero",
      },
      abcd: {
        type: "lista",
        unit: "",
        required: false,
        rule: "A, B, C, D ou vazio",
        description: "Curva ABCD",
        example: "A",
      },
      plc_local: masterText(100, false, "Ciclo de vida local", "3-Released"),
      plc_global: masterText(100, false, "Ciclo de vida global", "3-Released"),
      data_validade_sku: {
        type: "data",
        unit: "",
        required: true,
        rule: DATE_RULE,
        description: "Global Forecast End Date",
        example: "2027-12-31",
      },
    },
  },
  channel: {
    title: "Canal (Channel)",
    feeds: "Repository Master – Canal (/repo/master-data/canal)",
    writeModeText: "Inclui as linhas válidas na base Ok; as inválidas vão para a base NOK com o erro.",
    columns: {
      cnpj: {
        type: "CNPJ",
        unit: "",
        required: true,
        rule: "14 dígitos (pontos, barra e traço opcionais) com dígitos verificadores válidos",
        description: "CNPJ do canal",
        example: "11.222.333/0001-81",
      },
      description: masterText(200, false, "Descrição", "Loja parceira"),
      channel_siop: masterText(100, true, "Canal SIOP", "ONLINE_PARTNERS"),
    },
  },
  spend: {
    title: "Planejamento – spend (Planning spend)",
    feeds: "Repository Master – Planejamento (/repo/master-data/planejamento, abas Spend)",
    writeModeText: "Inclui as linhas válidas na base Ok; as inválidas vão para a base NOK com o erro.",
    columns: {
      channel: {
        type: "lista",
        unit: "",
        required: true,
        rule: "WHOLESALES, BRANDSITE, ONLINE_PARTNERS ou FSS",
        description: "Canal",
        example: "WHOLESALES",
      },
      marca: masterText(100, true, "Marca", "Marca A"),
      yearMonthDay: {
        type: "data",
        unit: "",
        required: true,
        rule: "data AAAAMMDD ou AAAA-MM-DD; gravada como AAAAMMDD",
        description: "Versão",
        example: "20260301",
      },
    },
  },
};

function masterInfo(template: Template): TemplateInfo {
  const docs = MASTER_DOCS[template.id];
  return {
    id: template.id,
    label: docs.title,
    feeds: docs.feeds,
    writeModeText: docs.writeModeText,
    allOrNothing: false,
    columns: template.headers.map((name) => ({ name, ...docs.columns[name] })),
  };
}

function datasetInfo(template: DatasetTemplate): TemplateInfo {
  return {
    id: template.id,
    label: template.label,
    feeds: template.feeds,
    writeModeText: template.writeModeText,
    allOrNothing: true,
    columns: template.columns.map((c) => ({
      name: c.name,
      type: ruleType(c.rule),
      unit: c.unit ?? "",
      required: ruleRequired(c.rule),
      rule: ruleDescription(c.rule),
      description: c.description,
      example: c.example,
    })),
  };
}

/** The nine templates, in the page's order: the master data of spec 000, then the spec-001 datasets. */
export const TEMPLATE_CATALOG: readonly TemplateInfo[] = [
  masterInfo(productTemplate),
  masterInfo(channelTemplate),
  masterInfo(spendTemplate),
  ...DATASET_TEMPLATES.map(datasetInfo),
];

export const TEMPLATE_IDS: readonly string[] = TEMPLATE_CATALOG.map((t) => t.id);

export function templateInfo(id: string): TemplateInfo | null {
  return TEMPLATE_CATALOG.find((t) => t.id === id) ?? null;
}

/** The templates a user of `type` may load now: /captura/manual offers these and no others. */
export function templatesFor(type: PermissionType | "" | null | undefined): TemplateInfo[] {
  const context = accessContext();
  return TEMPLATE_CATALOG.filter((t) => canUploadTo(type, t.id, context));
}

/** The name a job message gives a template: the master-data templates keep their spec-000 label. */
function messageLabel(info: TemplateInfo): string {
  const master = [productTemplate, channelTemplate, spendTemplate].find((t) => t.id === info.id);
  return master ? master.label : info.label;
}

const examples = new Map<string, readonly unknown[]>();

/**
 * The example row of template `id` as the import stores it, in the template's column order (import/example-row.ts):
 * the master-data rules (templates.ts checkRow) or the dataset rules (datasets/rules.ts checkCell) applied to each
 * column's example. An example its own rules refuse is a mistake in this file: it throws.
 */
export function exampleValues(id: string): readonly unknown[] {
  const known = examples.get(id);
  if (known) return known;
  const info = templateInfo(id);
  if (!info) throw new Error(`No template ${id}`);
  const { values, texts } = exampleCells(info.columns.map((c) => c.example));
  const master = [productTemplate, channelTemplate, spendTemplate].find((t) => t.id === id);
  let stored: unknown[];
  if (master) {
    stored = new Array<unknown>(values.length);
    const errors = checkRow(master, values, texts, stored);
    if (errors) throw new Error(`The example row of ${id} is invalid: ${errors.join(" | ")}`);
  } else {
    const dataset = DATASET_TEMPLATES.find((t) => t.id === id)!;
    const out = { value: undefined as unknown };
    stored = dataset.columns.map((c, k) => {
      const problem = checkCell(c.rule, values[k], texts[k], out);
      if (problem !== null) throw new Error(`The example row of ${id} is invalid: ${c.name}: ${problem}`);
      return out.value;
    });
  }
  examples.set(id, stored);
  return stored;
}

export type ClosestTemplate = { label: string; missing: string[]; unexpected: string[] };

/**
 * The template whose columns the header row shares most of (Jaccard: shared / all names of both), with the columns
 * the file lacks and those it has that the template does not. Ties: fewer missing columns, then catalogue order.
 */
export function closestTemplate(headerRow: readonly CellValue[]): ClosestTemplate {
  const names = [...new Set(headerRow.map(normalizeHeader).filter((n) => n.length > 0))];
  const present = new Set(names);
  let best: { info: TemplateInfo; score: number; missing: string[]; unexpected: string[] } | null = null;
  for (const info of TEMPLATE_CATALOG) {
    const expected = new Set(info.columns.map((c) => c.name.toLowerCase()));
    const missing = info.columns.map((c) => c.name).filter((n) => !present.has(n.toLowerCase()));
    const shared = info.columns.length - missing.length;
    const unexpected = names.filter((n) => !expected.has(n));
    const score = shared / (info.columns.length + unexpected.length);
    if (!best || score > best.score || (score === best.score && missing.length < best.missing.length))
      best = { info, score, missing, unexpected };
  }
  return { label: messageLabel(best!.info), missing: best!.missing, unexpected: best!.unexpected };
}

/** The dataset template whose every column the header row holds (any order, any case), with each column's position. */
export function detectDatasetLayout(
  headerRow: readonly CellValue[],
): { template: DatasetTemplate; indexes: number[] } | null {
  const positions = new Map<string, number>();
  headerRow.forEach((cell, index) => {
    const name = normalizeHeader(cell);
    if (name && !positions.has(name)) positions.set(name, index);
  });
  // The template with the most columns first: none is then mistaken for one whose columns it contains.
  const byWidth = [...DATASET_TEMPLATES].sort((a, b) => b.columns.length - a.columns.length);
  for (const template of byWidth) {
    const indexes = template.columns.map((c) => positions.get(c.name.toLowerCase()) ?? -1);
    if (indexes.every((i) => i >= 0)) return { template, indexes };
  }
  return null;
}
