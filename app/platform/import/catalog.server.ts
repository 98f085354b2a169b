import { canUploadTo, type PermissionType, type UploadTargetId } from "~/access";
import { accessContext } from "~/config.server";
import type { CellValue } from "~/shared/excel/values";
import { TEMPLATES } from "./registry";
import { ruleDescription, ruleRequired, ruleType } from "./rules";
import { normalizeHeader, type Template } from "./template";

/**
 * The upload templates (templates.ts) as /captura/manual lists them and the XLSX download describes them: each
 * column's type, rule and requirement in words (rules.ts). Also the closest template to a header row that matches none.
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

function infoOf(template: Template): TemplateInfo {
  return {
    id: template.id,
    label: template.title ?? template.label,
    feeds: template.feeds,
    writeModeText: template.writeModeText,
    allOrNothing: template.load.mode === "all-or-nothing",
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

/** The nine templates as the page lists them (templates.ts): the master data of spec 000, then the spec-001 datasets. */
export const TEMPLATE_CATALOG: readonly TemplateInfo[] = TEMPLATES.map(infoOf);

export const TEMPLATE_IDS: readonly string[] = TEMPLATE_CATALOG.map((t) => t.id);

export function templateInfo(id: string): TemplateInfo | null {
  return TEMPLATE_CATALOG.find((t) => t.id === id) ?? null;
}

/** The templates a user of `type` may load now: /captura/manual offers these and no others. */
export function templatesFor(type: PermissionType | "" | null | undefined): TemplateInfo[] {
  const context = accessContext();
  return TEMPLATE_CATALOG.filter((t) => canUploadTo(type, t.id, context));
}

export type ClosestTemplate = { label: string; missing: string[]; unexpected: string[] };

/**
 * The template whose columns the header row shares most of (Jaccard: shared / all names of both), with the columns
 * the file lacks and those it has that the template does not. Ties: fewer missing columns, then catalogue order.
 */
export function closestTemplate(headerRow: readonly CellValue[]): ClosestTemplate {
  const names = [...new Set(headerRow.map(normalizeHeader).filter((n) => n.length > 0))];
  const present = new Set(names);
  let best: { template: Template; score: number; missing: string[]; unexpected: string[] } | null = null;
  for (const template of TEMPLATES) {
    const expected = new Set(template.columns.map((c) => c.name.toLowerCase()));
    const missing = template.columns.map((c) => c.name).filter((n) => !present.has(n.toLowerCase()));
    const shared = template.columns.length - missing.length;
    const unexpected = names.filter((n) => !expected.has(n));
    const score = shared / (template.columns.length + unexpected.length);
    if (!best || score > best.score || (score === best.score && missing.length < best.missing.length))
      best = { template, score, missing, unexpected };
  }
  return { label: best!.template.label, missing: best!.missing, unexpected: best!.unexpected };
}
