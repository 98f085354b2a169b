import { BUSINESS_UNITS, FINANCIAL_DOCUMENT_TYPES, type FinancialReportRecord } from "~/models/financial.server";
import type { ReportRecord } from "~/models/reports.server";
import { addDays, monthStart, scaled, type SeedContext } from "./context";
import { BRANDS } from "./vocabulary";

const MONTHS_PT = ["Jan", "Fev", "Mar", "Abr", "Mai", "Jun", "Jul", "Ago", "Set", "Out", "Nov", "Dez"];
const REPORT_TITLES = [
  "Planejamento de Quantidades",
  "Sell-out por Canal",
  "Fechamento Mensal",
  "Posição de Estoque",
  "Spend por Marca",
  "Forecast x Realizado",
  "Geração Solar por Usina",
  "Indicadores de Loja",
  "Ruptura de Gôndola",
  "Margem por Categoria",
];

/** The automation's own account, for reports nobody uploaded by hand. */
export const AUTOMATION_USER = "automacao@demo.local";

function slug(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
}

export function generateReports(ctx: SeedContext, uploaders: readonly string[]): ReportRecord[] {
  const random = ctx.random.fork("reports");
  return Array.from({ length: scaled(ctx, 600, 6) }, (_, i) => {
    const origin = i === 0 ? "automatico" : i === 1 ? "manual" : random.weighted([["automatico", 6], ["manual", 4]] as const);
    const dateRef = monthStart(ctx.reference, -random.int(1, 24));
    const title = random.pick(REPORT_TITLES);
    const brand = random.chance(0.3) ? ` - ${random.pick(BRANDS)}` : "";
    const name = `${title}${brand} - ${MONTHS_PT[dateRef.getUTCMonth()]}/${dateRef.getUTCFullYear()}`;
    const createdDate = new Date(Math.min(addDays(monthStart(dateRef, 1), random.int(0, 10)).getTime() + random.int(0, 86_399) * 1000, ctx.reference.getTime() - 1000));
    const statusChangeDate = new Date(Math.min(createdDate.getTime() + random.int(30, 3 * 86_400) * 1000, ctx.reference.getTime()));
    const ext = random.weighted([["xlsx", 6], ["pdf", 3], ["docx", 1]] as const);
    const originalFile = `${random.uuid()}.${ext}`;
    return {
      _id: random.objectId(createdDate),
      name,
      origin,
      dateRef,
      createdDate,
      statusChangeDate,
      user: origin === "automatico" ? AUTOMATION_USER : random.pick(uploaders),
      originalFile,
      originalName: `${slug(name)}.${ext}`,
      bucket: ctx.bucket,
      // About one in five has no online-viewer address (its viewer action is disabled).
      url: i === 2 || random.chance(0.2) ? null : `https://relatorios.demo.local/view/${originalFile}`,
    };
  });
}

/**
 * Financial statements: MONTHLY for the last 24 months and ANNUAL for the last 5 years, Word and
 * Excel, for each business unit. A few combinations are missing and a few have no url. Not scaled.
 */
export function generateFinancialReports(ctx: SeedContext): FinancialReportRecord[] {
  const random = ctx.random.fork("financial_reports");
  const records: FinancialReportRecord[] = [];
  const periods: { type: "MONTHLY" | "ANNUAL"; dateRef: Date }[] = [
    ...Array.from({ length: 24 }, (_, i) => ({ type: "MONTHLY" as const, dateRef: monthStart(ctx.reference, -24 + i) })),
    ...Array.from({ length: 5 }, (_, i) => ({
      type: "ANNUAL" as const,
      dateRef: new Date(Date.UTC(ctx.reference.getUTCFullYear() - 5 + i, 0, 1)),
    })),
  ];
  for (const businessUnitID of BUSINESS_UNITS) {
    for (const { type, dateRef } of periods) {
      for (const typeDocument of FINANCIAL_DOCUMENT_TYPES) {
        if (random.chance(0.06)) continue;
        const period = dateRef.toISOString().slice(0, type === "ANNUAL" ? 4 : 7);
        const originalFile = `financial/${businessUnitID}/${type.toLowerCase()}/${period}.${typeDocument.toLowerCase()}`;
        const withoutUrl = random.chance(0.1);
        records.push({
          _id: random.objectId(addDays(type === "ANNUAL" ? new Date(Date.UTC(dateRef.getUTCFullYear() + 1, 0, 15)) : monthStart(dateRef, 1), 5)),
          businessUnitID,
          type,
          dateRef,
          typeDocument,
          ...(withoutUrl ? {} : { url: `https://relatorios.demo.local/${originalFile}` }),
          bucket: ctx.bucket,
          originalFile,
        });
      }
    }
  }
  return records;
}
