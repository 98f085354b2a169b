import { HR_FIGURE_RULES } from "~/features/hr/figures";
import { ACCOUNT_CONCAT_MAX, COST_CENTER_CONCAT_MAX, parseScenario } from "~/models/forecast.fields";
import { HR_COMMENT_MAX } from "~/models/hr.server";
import { CHANNELS, DATE_MAX, DATE_MIN, QUANTITY_MAX } from "~/models/planning.fields";
import { BUSINESS_UNITS, CATEGORY1_OPTIONS } from "~/models/reports.fields";
import { MONEY_RULE } from "~/shared/numbers";
import { type ColumnRule, choiceRule, invalid } from "../rules";
import type { DatasetTemplate, RowValues } from "../template";

/**
 * The upload templates of the datasets the spec-001 screens show, which only the demo seed filled before: planning
 * quantities, forecast records, ledger lines, HR auxiliary figures, FP&A responsibles and fiscal-asset items. Each is
 * recognised by its header row (every column present, any order and case; ../template.ts), checked row by row, and
 * applied all or nothing: a file with any NOK row changes no business data (docs/decisions.md "Upload templates").
 */

const text = (
  required: boolean,
  max: number,
  extra: Partial<Extract<ColumnRule, { kind: "text" }>> = {},
): ColumnRule => ({ kind: "text", required, max, ...extra });
const choice = (allowed: readonly string[], rule: string, required = true): ColumnRule =>
  choiceRule(allowed, rule, { required });
/** An amount in R$: MONEY_RULE, as the screens read it (more decimals round to cents). */
const money = (required: boolean): ColumnRule => ({ kind: "decimal", required, ...MONEY_RULE });
const monthStart = (iso: string) => new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, 1));

const UNITS_RULE = BUSINESS_UNITS.join(", ");

// ---------------------------------------------------------------------------------------------
// a. Planning quantities (/ij/plan_edit, /ij/report_preview)

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
      rule: text(true, 40, {
        pattern: /^[A-Za-z0-9._-]+$/,
        patternRule: "esperado apenas letras, dígitos, ponto, hífen e sublinhado",
      }),
      unit: "código",
      description: "Código do SKU",
      example: "SKU10001",
    },
    {
      name: "channel",
      rule: choice(CHANNELS, CHANNELS.join(", ")),
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
      rule: text(true, 200),
      description: "Descrição do material",
      example: "Batom Matte Vermelho",
    },
    { name: "marca", rule: text(true, 100), description: "Marca", example: "Marca A" },
    {
      name: "hero",
      rule: choice(["hero", "non-hero"], "hero ou non-hero"),
      description: "Produto hero",
      example: "hero",
    },
    {
      name: "abcd",
      rule: choice(["A", "B", "C", "D"], "A, B, C, D ou vazio", false),
      description: "Curva ABCD",
      example: "A",
    },
    {
      name: "plc_localsku",
      rule: text(false, 100),
      description: "Ciclo de vida local (PLC Local)",
      example: "3-Released",
    },
    { name: "category_sku", rule: text(false, 100), description: "Categoria", example: "Lips" },
    { name: "categoria_principal_sku", rule: text(false, 100), description: "Categoria principal", example: "Makeup" },
    { name: "sub_categoria_sku", rule: text(false, 100), description: "Subcategoria", example: "Batom" },
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

// ---------------------------------------------------------------------------------------------
// b. Forecast records, actuals and RF (cost-centre forecast review)

const SCENARIO_RULE = 'actual ou RF1 a RF4 seguido do ano, ex.: "RF1 2026"';

export const forecastTemplate: DatasetTemplate = {
  id: "forecast",
  label: "Previsão (forecast)",
  feeds: "Revisão de forecast por centro de custo (/ij/report_create_schneider, /ij/report_preview_edit_schneider)",
  writeModeText:
    "Atualiza ou inclui por (rf, cost_center_concat, account_concat, data_ref); os demais registros ficam como estão. Mudanças de forecast entram no histórico da célula. As linhas de um RF só são aceitas no mês de edição do RF e enquanto o centro de custo não foi enviado nem aprovado (senão o arquivo é recusado inteiro); o realizado (actual) é aceito a qualquer momento.",
  columns: [
    { name: "rf", rule: text(true, 20), description: `Cenário: ${SCENARIO_RULE}`, example: "RF1 2026" },
    {
      name: "cost_center_concat",
      rule: text(true, COST_CENTER_CONCAT_MAX),
      description: "Centro de custo com nome, como a tela mostra",
      example: "CC1001 - Marketing",
    },
    {
      name: "cost_center",
      rule: text(true, 50),
      unit: "código",
      description: "Código do centro de custo",
      example: "CC1001",
    },
    {
      name: "level_descr",
      rule: text(false, 100),
      description: "Nível / área do centro de custo",
      example: "Comercial",
    },
    { name: "group_level_2", rule: text(true, 100), description: "Grupo de contas", example: "Despesas com Pessoal" },
    { name: "data_ref", rule: { kind: "month" }, description: "Mês", example: "2026-11" },
    {
      name: "account_concat",
      rule: text(true, ACCOUNT_CONCAT_MAX),
      description: "Conta com descrição",
      example: "4101001 - Salários e Ordenados",
    },
    {
      name: "acc_description",
      rule: text(false, 200),
      description: 'Descrição da conta (vazio: o texto após " - " em account_concat)',
      example: "Salários e Ordenados",
    },
    { name: "value", rule: money(false), unit: "R$", description: "Realizado do mês (actual)", example: "0" },
    {
      name: "forecast",
      rule: money(false),
      unit: "R$",
      description: "Forecast do mês (0 no cenário actual)",
      example: "182.500,00",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "upsert",
    keyColumns: ["rf", "cost_center_concat", "account_concat", "data_ref"],
    newRowChecker: () => (row) => {
      const rf = String(row.rf);
      if (rf.toLowerCase() === "actual") {
        row.rf = "actual";
        return null;
      }
      const normalized = rf.toUpperCase().replace(/\s+/g, " ");
      if (!parseScenario(normalized)) return [invalid("rf", rf, `esperado ${SCENARIO_RULE} (ano de 2000 a 2099)`)];
      row.rf = normalized;
      return null;
    },
    toDoc: (r) => {
      const account = String(r.account_concat);
      const separator = account.indexOf(" - ");
      return {
        rf: r.rf,
        cost_center_concat: r.cost_center_concat,
        cost_center: r.cost_center,
        level_descr: r.level_descr,
        group_level_2: r.group_level_2,
        data_ref: r.data_ref,
        account_concat: account,
        acc_description: r.acc_description || (separator >= 0 ? account.slice(separator + 3) : account),
        value: r.value,
        forecast: r.forecast,
      };
    },
  },
};

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
      rule: choice(BUSINESS_UNITS, UNITS_RULE),
      unit: "código",
      description: "Empresa (unidade de negócio)",
      example: "2236",
    },
    { name: "month", rule: { kind: "month" }, description: "Mês do saldo", example: "2026-01" },
    {
      name: "account",
      rule: text(true, 40, {
        pattern: /^[A-Za-z0-9._-]+$/,
        patternRule: "esperado apenas letras, dígitos, ponto, hífen e sublinhado",
      }),
      unit: "código",
      description: "Código da conta contábil",
      example: "1.1.02.001",
    },
    {
      name: "category1",
      rule: choice(CATEGORY1_OPTIONS, CATEGORY1_OPTIONS.join(", ")),
      description: "Categoria 1 do cockpit",
      example: "Current Assets",
    },
    {
      name: "category2",
      rule: text(true, 100),
      description: "Categoria 2 (grupo de contas)",
      example: "Trade Receivables",
    },
    { name: "category3", rule: text(true, 100), description: "Categoria 3 (nome da conta)", example: "Customers" },
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
      rule: money(true),
      unit: "R$",
      description: "Saldo de fechamento do mês",
      example: "12.400.000,00",
    },
    {
      name: "priorYear",
      rule: money(false),
      unit: "R$",
      description: "Saldo do mesmo mês no ano anterior",
      example: "11.950.000,00",
    },
    {
      name: "forecast",
      rule: money(false),
      unit: "R$",
      description: "Forecast do mês (rf_n)",
      example: "12.600.000,00",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "replace",
    keyColumns: ["businessUnitID", "month", "account"],
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
// d. HR auxiliary figures per branch and month

const figure = (field: keyof typeof HR_FIGURE_RULES): ColumnRule => ({
  kind: "decimal",
  required: false,
  min: 0,
  max: HR_FIGURE_RULES[field].max,
  decimals: HR_FIGURE_RULES[field].decimals,
  excessDecimals: HR_FIGURE_RULES[field].excessDecimals,
});

export const hrTemplate: DatasetTemplate = {
  id: "hr_aux",
  label: "RH – dados auxiliares por filial e mês",
  feeds: "Auxiliar Padrão de RH (/ij/rh, /ij/rh_edit/{filial})",
  writeModeText:
    "Atualiza ou inclui por (filial_nome, mes_apur, matricula); o comentário existente é mantido quando a coluna comentario vem vazia. Valores alterados entram no histórico.",
  columns: [
    { name: "marca_cod", rule: text(true, 20), unit: "código", description: "Código da marca", example: "01" },
    { name: "marca_desc", rule: text(true, 100), description: "Marca", example: "Marca A" },
    { name: "filial_cod", rule: text(true, 20), unit: "código", description: "Código da filial", example: "1001" },
    {
      name: "filial_nome",
      rule: text(true, 100),
      description: "Nome da filial (como a tela lista)",
      example: "Loja Centro",
    },
    { name: "mes_apur", rule: { kind: "month" }, description: "Mês de apuração", example: "2026-02" },
    {
      name: "matricula",
      rule: text(true, 20),
      unit: "código",
      description: "Matrícula do colaborador",
      example: "100231",
    },
    { name: "nome", rule: text(true, 200), description: "Nome do colaborador", example: "Ana Souza Lima" },
    { name: "cpf", rule: { kind: "cpf" }, description: "CPF (a tela mostra mascarado)", example: "529.982.247-25" },
    { name: "cargo_cod", rule: text(false, 20), unit: "código", description: "Código do cargo", example: "101" },
    { name: "cargo_nome", rule: text(false, 100), description: "Cargo", example: "Consultora de Vendas" },
    {
      name: "datas_afastamento",
      rule: text(false, 200),
      description: "Períodos de afastamento, em texto",
      example: "03/02/2026 a 07/02/2026",
    },
    {
      name: "vendas_adicionais",
      rule: figure("vendas_adicionais"),
      unit: "R$",
      description: "Vendas adicionais",
      example: "1.250,50",
    },
    { name: "dias_media", rule: figure("dias_media"), unit: "dias", description: "Média de dias", example: "21,5" },
    {
      name: "result_qtde_servico",
      rule: figure("result_qtde_servico"),
      unit: "quantidade",
      description: "Quantidade de serviços",
      example: 35,
    },
    {
      name: "result_desafio_mensal",
      rule: figure("result_desafio_mensal"),
      unit: "%",
      description: "Resultado do desafio mensal",
      example: "98,4",
    },
    {
      name: "vendas_servicos",
      rule: figure("vendas_servicos"),
      unit: "R$",
      description: "Vendas de serviços",
      example: "830,00",
    },
    {
      name: "comentario",
      rule: text(false, HR_COMMENT_MAX),
      description: "Comentário (vazio mantém o existente)",
      example: "",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "upsert",
    keyColumns: ["filial_nome", "mes_apur", "matricula"],
    toDoc: (r) => ({
      marca_cod: r.marca_cod,
      marca_desc: r.marca_desc,
      filial_cod: r.filial_cod,
      filial_nome: r.filial_nome,
      mes_apur: r.mes_apur,
      matricula: r.matricula,
      nome: r.nome,
      cpf: r.cpf,
      cargo_cod: r.cargo_cod,
      cargo_nome: r.cargo_nome,
      datas_afastamento: r.datas_afastamento,
      vendas_adicionais: r.vendas_adicionais,
      dias_media: r.dias_media,
      result_qtde_servico: r.result_qtde_servico,
      result_desafio_mensal: r.result_desafio_mensal,
      vendas_servicos: r.vendas_servicos,
      comentario: r.comentario,
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
      rule: choice(BUSINESS_UNITS, UNITS_RULE),
      unit: "código",
      description: "Empresa (unidade de negócio)",
      example: "2236",
    },
    { name: "country", rule: text(true, 100), description: "País", example: "Brasil" },
    { name: "functionalArea", rule: text(true, 100), description: "Área funcional", example: "Controladoria" },
    { name: "personResponsible", rule: text(true, 200), description: "Pessoa responsável", example: "Carla Mendes" },
    { name: "userResponsible", rule: text(true, 200), description: "Usuário responsável", example: "Rafael Costa" },
    { name: "costCenter", rule: text(true, 200), description: "Centro de custo", example: "CC223601 - Controladoria" },
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
      rule: choice(BUSINESS_UNITS, UNITS_RULE),
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
      rule: text(true, 40),
      unit: "código",
      description: "Conta contábil que o item suporta",
      example: "1.1.04.001",
    },
    { name: "description", rule: text(true, 200), description: "Descrição do item", example: "ICMS Recoverable" },
    { name: "value", rule: money(true), unit: "R$", description: "Valor do item", example: "1.350.000,00" },
    {
      name: "worksheet_file",
      rule: text(true, 255),
      description: "Nome original da planilha no repositório (/repo/format)",
      example: "icms_2236.xlsx",
    },
    {
      name: "document_file",
      rule: text(true, 255),
      description: "Nome original do documento no repositório (/repo/format)",
      example: "icms_2236.pdf",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "replace",
    keyColumns: ["businessUnitID", "year", "account", "description"],
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
