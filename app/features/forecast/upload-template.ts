import type { Db } from "mongodb";
import { ACCOUNT_CONCAT_MAX, COST_CENTER_CONCAT_MAX, parseScenario } from "~/models/forecast.fields";
import { forecastLocks } from "~/models/forecast.server";
import { pairKey } from "~/models/forecast-cycle.server";
import { moneyColumn, textColumn } from "~/platform/import/column-rules";
import { invalid } from "~/platform/import/rules";
import type { ChangeGuard, DatasetTemplate } from "~/platform/import/template";
import { portalToday } from "~/shared/clock.server";
import { cycleLockTexts, lockReasonOf } from "./cycle/server-texts";

/**
 * The upload template of forecast records, actuals and RF. Recognised by its header row (every column present, any order and case; platform/import/template.ts), checked
 * row by row, and applied all or nothing: a file with any NOK row changes no business data (docs/decisions.md
 * "Uploads and jobs"). app/datasets.server.ts lists it for the import pipeline.
 */

/**
 * The forecast's write rule (forecastLocks: the cycle's state, the RF's edit month) over the (rf, cost centre) pairs a
 * file names: one locked pair refuses the whole file, naming each with its reason.
 */
function forecastChangeGuard(): ChangeGuard {
  const pairs = new Map<string, { rf: string; cost_center_concat: string }>();
  return {
    note(row) {
      const pair = { rf: String(row.rf), cost_center_concat: String(row.cost_center_concat) };
      pairs.set(pairKey(pair.rf, pair.cost_center_concat), pair);
    },
    async refusal(db: Db, now: Date) {
      if (pairs.size === 0) return null;
      const locks = await forecastLocks([...pairs.values()], portalToday(now), db);
      if (locks.size === 0) return null;
      return cycleLockTexts.lockedUpload(
        [...locks].map(([key, lock]) => {
          const pair = pairs.get(key)!;
          return { costCenter: pair.cost_center_concat, rf: pair.rf, reason: lockReasonOf(lock) };
        }),
      );
    },
  };
}

const SCENARIO_RULE = 'actual ou RF1 a RF4 seguido do ano, ex.: "RF1 2026"';

export const forecastTemplate: DatasetTemplate = {
  id: "forecast",
  label: "Previsão (forecast)",
  feeds: "Revisão de forecast por centro de custo (/ij/report_create_schneider, /ij/report_preview_edit_schneider)",
  writeModeText:
    "Atualiza ou inclui por (rf, cost_center_concat, account_concat, data_ref); os demais registros ficam como estão. Mudanças de forecast entram no histórico da célula. As linhas de um RF só são aceitas no mês de edição do RF e enquanto o centro de custo não foi enviado nem aprovado (senão o arquivo é recusado inteiro); o realizado (actual) é aceito a qualquer momento. Quem não é revisor nem SYSTEM ADMIN só grava os centros de custo que prepara: uma linha de outro centro de custo é recusada, e com ela o arquivo inteiro.",
  columns: [
    { name: "rf", rule: textColumn(true, 20), description: `Cenário: ${SCENARIO_RULE}`, example: "RF1 2026" },
    {
      name: "cost_center_concat",
      rule: textColumn(true, COST_CENTER_CONCAT_MAX),
      description: "Centro de custo com nome, como a tela mostra",
      example: "CC1001 - Marketing",
    },
    {
      name: "cost_center",
      rule: textColumn(true, 50),
      unit: "código",
      description: "Código do centro de custo",
      example: "CC1001",
    },
    {
      name: "level_descr",
      rule: textColumn(false, 100),
      description: "Nível / área do centro de custo",
      example: "Comercial",
    },
    {
      name: "group_level_2",
      rule: textColumn(true, 100),
      description: "Grupo de contas",
      example: "Despesas com Pessoal",
    },
    { name: "data_ref", rule: { kind: "month" }, description: "Mês", example: "2026-11" },
    {
      name: "account_concat",
      rule: textColumn(true, ACCOUNT_CONCAT_MAX),
      description: "Conta com descrição",
      example: "4101001 - Salários e Ordenados",
    },
    {
      name: "acc_description",
      rule: textColumn(false, 200),
      description: 'Descrição da conta (vazio: o texto após " - " em account_concat)',
      example: "Salários e Ordenados",
    },
    { name: "value", rule: moneyColumn(false), unit: "R$", description: "Realizado do mês (actual)", example: "0" },
    {
      name: "forecast",
      rule: moneyColumn(false),
      unit: "R$",
      description: "Forecast do mês (0 no cenário actual)",
      example: "182.500,00",
    },
  ],
  load: {
    mode: "all-or-nothing",
    writeMode: "upsert",
    keyColumns: ["rf", "cost_center_concat", "account_concat", "data_ref"],
    changeGuard: forecastChangeGuard,
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
