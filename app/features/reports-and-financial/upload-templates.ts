import type { BusinessUnitId, Category1 } from "~/models/reports.fields";
import { BUSINESS_UNITS, CATEGORY1_OPTIONS } from "~/models/reports.fields";
import { choiceColumn, moneyColumn, textColumn } from "~/platform/import/column-rules";
import { invalid } from "~/platform/import/rules";
import type { DatasetTemplate, RowValues } from "~/platform/import/template";

/**
 * The upload templates of ledger lines, FP&A responsibles and fiscal-asset items. Each is recognised by its header
 * row (every column present, any order and case; platform/import/template.ts), checked row by row, and applied all or
 * nothing: a file with any NOK row changes no business data (docs/decisions.md "Uploads and jobs").
 * app/datasets.server.ts lists them for the import pipeline.
 */

const UNITS_RULE = BUSINESS_UNITS.join(", ");

// ---------------------------------------------------------------------------------------------
// c. Ledger / balance-sheet lines by business unit and month

export const LEDGER_ACCOUNT_COLUMNS = ["category1", "category2", "category3", "working_capital", "fiscal"] as const;

export const ledgerTemplate: DatasetTemplate = {
  id: "ledger",
  label: "Razão / balanço por empresa e mês",
  feeds:
    "Demonstrações financeiras (/ij/demo_financial), cockpit (/ij/cockpit_preview), ativo fiscal (/ij/fiscal) e FP&A (/ij/report_save)",
  writeModeText:
    "Substitui as linhas de cada par (empresa, mês) presente no arquivo; outros meses e empresas ficam como estão. Contas novas entram no plano de contas; as existentes têm a classificação atualizada.",
  columns: [
    {
      name: "businessUnitID",
      rule: choiceColumn(BUSINESS_UNITS, UNITS_RULE),
      unit: "código",
      description: "Empresa (unidade de negócio)",
      example: "2236",
    },
    { name: "month", rule: { kind: "month" }, description: "Mês do saldo", example: "2026-01" },
    {
      name: "account",
      rule: textColumn(true, 40, {
        pattern: /^[A-Za-z0-9._-]+$/,
        patternRule: "esperado apenas letras, dígitos, ponto, hífen e sublinhado",
      }),
      unit: "código",
      description: "Código da conta contábil",
      example: "1.1.02.001",
    },
    {
      name: "category1",
      rule: choiceColumn(CATEGORY1_OPTIONS, CATEGORY1_OPTIONS.join(", ")),
      description: "Categoria 1 do cockpit",
      example: "Current Assets",
    },
    {
      name: "category2",
      rule: textColumn(true, 100),
      description: "Categoria 2 (grupo de contas)",
      example: "Trade Receivables",
    },
    {
      name: "category3",
      rule: textColumn(true, 100),
      description: "Categoria 3 (nome da conta)",
      example: "Customers",
    },
    {
      name: "working_capital",
      rule: { kind: "flag" },
      description: "A conta entra no capital de giro",
      example: "sim",
    },
    {
      name: "fiscal",
      rule: { kind: "flag" },
      description: "A conta é um ativo fiscal (página Ativo Fiscal)",
      example: "não",
    },
    {
      name: "actual",
      rule: moneyColumn(true),
      unit: "R$",
      description: "Saldo de fechamento do mês",
      example: "12.400.000,00",
    },
    {
      name: "priorYear",
      rule: moneyColumn(false),
      unit: "R$",
      description: "Saldo do mesmo mês no ano anterior",
      example: "11.950.000,00",
    },
    {
      name: "forecast",
      rule: moneyColumn(false),
      unit: "R$",
      description: "Forecast do mês (rf_n)",
      example: "12.600.000,00",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "replace",
    keyColumns: ["businessUnitID", "month", "account"],
    // The (company, month) pairs the file replaces, and the accounts it describes (added to the chart of accounts).
    collectScope: (row, scope) => {
      const month = row.month as Date;
      scope.pairs.set(`${String(row.businessUnitID)}|${month.getTime()}`, {
        businessUnitID: row.businessUnitID as BusinessUnitId,
        month,
      });
      const code = String(row.account);
      if (scope.accounts.has(code)) return;
      const [category1, category2, category3, workingCapital, fiscal] = LEDGER_ACCOUNT_COLUMNS.map((c) => row[c]);
      scope.accounts.set(code, {
        _id: code,
        description: `${code} - ${String(category3)}`,
        category1: category1 as Category1,
        category2: String(category2),
        category3: String(category3),
        workingCapital: Boolean(workingCapital),
        fiscal: Boolean(fiscal),
      });
    },
    // An account is described the same way on every line of a file.
    newRowChecker: () => {
      const accounts = new Map<string, { signature: string; line: number; values: RowValues }>();
      return (row, line) => {
        const signature = LEDGER_ACCOUNT_COLUMNS.map((c) => String(row[c])).join("\u0000");
        const seen = accounts.get(String(row.account));
        if (!seen) {
          accounts.set(String(row.account), { signature, line, values: row });
          return null;
        }
        if (seen.signature === signature) return null;
        const column = LEDGER_ACCOUNT_COLUMNS.find((c) => String(row[c]) !== String(seen.values[c])) ?? "category1";
        const shown = typeof row[column] === "boolean" ? (row[column] ? "sim" : "não") : String(row[column]);
        return [
          invalid(
            column,
            shown,
            `a conta ${String(row.account)} está classificada de outro modo na linha ${seen.line}`,
          ),
        ];
      };
    },
    toDoc: (r) => ({
      businessUnitID: r.businessUnitID,
      account: r.account,
      month: r.month,
      actual: r.actual,
      priorYear: r.priorYear,
      forecast: r.forecast,
      // The account's description travels with the row and is taken out when the chart is updated.
      _account: {
        category1: r.category1,
        category2: r.category2,
        category3: r.category3,
        workingCapital: r.working_capital,
        fiscal: r.fiscal,
      },
    }),
  },
};

// ---------------------------------------------------------------------------------------------
// e. FP&A responsibles

export const fpaTemplate: DatasetTemplate = {
  id: "fpa_responsibles",
  label: "FP&A – responsáveis",
  feeds: "Cabeçalho do relatório FP&A (/ij/report_save)",
  writeModeText:
    "Atualiza ou inclui o cabeçalho de cada empresa (businessUnitID); as demais empresas ficam como estão.",
  columns: [
    {
      name: "businessUnitID",
      rule: choiceColumn(BUSINESS_UNITS, UNITS_RULE),
      unit: "código",
      description: "Empresa (unidade de negócio)",
      example: "2236",
    },
    { name: "country", rule: textColumn(true, 100), description: "País", example: "Brasil" },
    { name: "functionalArea", rule: textColumn(true, 100), description: "Área funcional", example: "Controladoria" },
    {
      name: "personResponsible",
      rule: textColumn(true, 200),
      description: "Pessoa responsável",
      example: "Carla Mendes",
    },
    {
      name: "userResponsible",
      rule: textColumn(true, 200),
      description: "Usuário responsável",
      example: "Rafael Costa",
    },
    {
      name: "costCenter",
      rule: textColumn(true, 200),
      description: "Centro de custo",
      example: "CC223601 - Controladoria",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "upsert",
    keyColumns: ["businessUnitID"],
    toDoc: (r) => ({
      _id: r.businessUnitID,
      country: r.country,
      functionalArea: r.functionalArea,
      personResponsible: r.personResponsible,
      userResponsible: r.userResponsible,
      costCenter: r.costCenter,
    }),
  },
};

// ---------------------------------------------------------------------------------------------
// f. Fiscal-asset items

export const fiscalTemplate: DatasetTemplate = {
  id: "fiscal_items",
  label: "Ativo fiscal – itens",
  feeds: "Itens da página Ativo Fiscal (/ij/fiscal)",
  writeModeText:
    "Substitui os itens de cada par (empresa, ano) presente no arquivo. A planilha e o documento de cada item são arquivos já enviados ao repositório (/repo/format), indicados pelo nome original.",
  columns: [
    {
      name: "businessUnitID",
      rule: choiceColumn(BUSINESS_UNITS, UNITS_RULE),
      unit: "código",
      description: "Empresa (unidade de negócio)",
      example: "2236",
    },
    {
      name: "year",
      rule: { kind: "integer", required: true, min: 1950, max: 2100 },
      unit: "ano",
      description: "Ano do item",
      example: 2025,
    },
    {
      name: "account",
      rule: textColumn(true, 40),
      unit: "código",
      description: "Conta contábil que o item suporta",
      example: "1.1.04.001",
    },
    { name: "description", rule: textColumn(true, 200), description: "Descrição do item", example: "ICMS Recoverable" },
    { name: "value", rule: moneyColumn(true), unit: "R$", description: "Valor do item", example: "1.350.000,00" },
    {
      name: "worksheet_file",
      rule: textColumn(true, 255),
      description: "Nome original da planilha no repositório (/repo/format)",
      example: "icms_2236.xlsx",
    },
    {
      name: "document_file",
      rule: textColumn(true, 255),
      description: "Nome original do documento no repositório (/repo/format)",
      example: "icms_2236.pdf",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "replace",
    keyColumns: ["businessUnitID", "year", "account", "description"],
    // The (company, year) pairs the file replaces.
    collectScope: (row, scope) => {
      scope.pairs.set(`${String(row.businessUnitID)}|${String(row.year)}`, {
        businessUnitID: row.businessUnitID as BusinessUnitId,
        year: row.year as number,
      });
    },
    toDoc: (r) => ({
      businessUnitID: r.businessUnitID,
      year: r.year,
      account: r.account,
      description: r.description,
      value: r.value,
      // Resolved to the stored files before spooling (ingest.server.ts resolveFiles).
      worksheet: r.worksheet_file,
      document: r.document_file,
    }),
  },
};
