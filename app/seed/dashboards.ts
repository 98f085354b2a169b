import { type Document, EJSON } from "bson";
import { type DashboardChart, type DashboardRecord, PANEL_TYPES } from "~/models/dashboards.server";
import { FILES } from "~/models/files.server";
import { FORECAST } from "~/models/forecast.server";
import { HR_AUX } from "~/models/hr.server";
import { MASTER_DATA_COLLECTIONS, type MasterDataCollectionRecord } from "~/models/master-data.server";
import { CHANNELS, PLANNING_QUANTITY } from "~/models/planning.server";
import { addDays, monthStart, type SeedContext } from "./context";
import { currentScenario } from "./forecast";
import { MASTER_DATA_CATALOGUE } from "./master-data";

/**
 * Stored form of a pipeline: relaxed EJSON (dates as {"$date": ISO}), so dates survive the round trip
 * and the `$`-prefixed keys stay inside a string rather than in a stored document. Read it back with
 * `EJSON.parse(pipeline)`.
 */
export function pipelineToString(pipeline: Document[]): string {
  return EJSON.stringify(pipeline, { relaxed: true });
}

/** `labels` names the result fields for people: table headers, legend and tooltip, accents included. */
function chart(
  id: string,
  title: string,
  kind: DashboardChart["kind"],
  collection: string,
  pipeline: Document[],
  labels: Record<string, string> = {},
): DashboardChart {
  return { id, title, kind, collection, pipeline: pipelineToString(pipeline), labels };
}

const countIf = (condition: Document) => ({ $sum: { $cond: [condition, 1, 0] } });

function planningCharts(): DashboardChart[] {
  // Group on the raw fields first, so the per-row work is one sum; labels and pivots run on ~48 groups.
  const perChannel = Object.fromEntries(
    CHANNELS.map((c) => [c, { $sum: { $cond: [{ $eq: ["$_id.channel", c] }, "$total", 0] } }]),
  );
  return [
    chart(
      "planned-total",
      "Quantidade planejada (total)",
      "kpi",
      PLANNING_QUANTITY,
      [{ $group: { _id: null, value: { $sum: "$valor" } } }, { $project: { _id: 0, value: 1 } }],
      { value: "Quantidade" },
    ),
    chart(
      "planned-by-channel-month",
      "Quantidade planejada por canal e mês",
      "bar",
      PLANNING_QUANTITY,
      [
        { $group: { _id: { dateRef: "$dateRef", channel: "$channel" }, total: { $sum: "$valor" } } },
        { $group: { _id: { $dateToString: { format: "%Y-%m", date: "$_id.dateRef" } }, ...perChannel } },
        { $sort: { _id: 1 } },
        { $project: { _id: 0, label: "$_id", ...Object.fromEntries(CHANNELS.map((c) => [c, 1])) } },
      ],
      { label: "Mês" },
    ),
    chart(
      "planned-by-category",
      "Quantidade planejada por categoria principal",
      "pie",
      PLANNING_QUANTITY,
      [
        { $group: { _id: "$categoria_principal_sku", value: { $sum: "$valor" } } },
        { $sort: { value: -1 } },
        { $project: { _id: 0, label: "$_id", value: 1 } },
      ],
      { label: "Categoria principal", value: "Quantidade" },
    ),
  ];
}

/**
 * One row per subject of the master-data catalogue: its Ok base's rows and its NOK base's (`<ok>_nok`,
 * the catalogue's naming), counted with one `$lookup` per listed collection. A NOK base without an Ok
 * partner still gets its own row, so every listed collection is counted.
 */
export function masterDataOkNokChart(
  catalogue: readonly Pick<MasterDataCollectionRecord, "collection_name" | "label_name" | "collection_ok" | "order">[],
): DashboardChart {
  const listed = [...catalogue].sort((a, b) => a.order - b.order);
  const oks = listed.filter((c) => c.collection_ok === 1);
  const noks = listed.filter((c) => c.collection_ok !== 1);
  const partnerOf = (ok: (typeof listed)[number]) =>
    noks.find((n) => n.collection_name === `${ok.collection_name}_nok`);
  const paired = new Set(oks.map(partnerOf).filter((n) => n !== undefined));
  const subjects = [
    ...oks.map((ok) => ({ label: ok.label_name, ok: ok.collection_name, nok: partnerOf(ok)?.collection_name })),
    ...noks.filter((n) => !paired.has(n)).map((n) => ({ label: n.label_name, ok: undefined, nok: n.collection_name })),
  ];
  const field = (name: string) => `n_${listed.findIndex((c) => c.collection_name === name)}`;
  const lookups = listed.map((c) => ({
    $lookup: { from: c.collection_name, pipeline: [{ $count: "n" }], as: field(c.collection_name) },
  }));
  const count = (name: string | undefined) => (name ? { $ifNull: [{ $arrayElemAt: [`$${field(name)}.n`, 0] }, 0] } : 0);
  return chart(
    "master-data-ok-nok",
    "Master data: linhas OK x NOK por coleção",
    "bar",
    MASTER_DATA_COLLECTIONS,
    [
      // Any one catalogue document carries the lookups; the rows come from the list above.
      { $sort: { order: 1 } },
      { $limit: 1 },
      ...lookups,
      { $project: { _id: 0, rows: subjects.map((s) => ({ label: s.label, ok: count(s.ok), nok: count(s.nok) })) } },
      { $unwind: "$rows" },
      { $project: { label: "$rows.label", ok: "$rows.ok", nok: "$rows.nok" } },
    ],
    { label: "Coleção", ok: "OK", nok: "NOK" },
  );
}

function masterDataCharts(): DashboardChart[] {
  return [
    masterDataOkNokChart(MASTER_DATA_CATALOGUE),
    chart(
      "master-data-collections",
      "Coleções de master data",
      "table",
      MASTER_DATA_COLLECTIONS,
      [
        { $sort: { order: 1 } },
        {
          $project: {
            _id: 0,
            colecao: "$label_name",
            nome: "$collection_name",
            base: { $cond: [{ $eq: ["$collection_ok", 1] }, "OK", "NOK"] },
          },
        },
      ],
      { colecao: "Coleção", nome: "Nome", base: "Base" },
    ),
  ];
}

function forecastCharts(ctx: SeedContext): DashboardChart[] {
  const scenario = currentScenario(ctx.reference).rf;
  const from = monthStart(ctx.reference, -12);
  const to = monthStart(ctx.reference);
  return [
    chart(
      "forecast-vs-actual-by-cost-centre",
      `Forecast (${scenario}) x Realizado por centro de custo, últimos 12 meses`,
      "bar",
      FORECAST,
      [
        { $match: { rf: { $in: ["actual", scenario] }, data_ref: { $gte: from, $lt: to } } },
        {
          $group: {
            _id: "$cost_center_concat",
            realizado: { $sum: { $cond: [{ $eq: ["$rf", "actual"] }, "$value", 0] } },
            forecast: { $sum: { $cond: [{ $eq: ["$rf", scenario] }, "$forecast", 0] } },
          },
        },
        { $sort: { realizado: -1 } },
        { $limit: 15 },
        {
          $project: {
            _id: 0,
            label: "$_id",
            realizado: { $round: ["$realizado", 2] },
            forecast: { $round: ["$forecast", 2] },
          },
        },
      ],
      { label: "Centro de custo", realizado: "Realizado", forecast: "Forecast" },
    ),
    chart(
      "actual-by-month",
      "Realizado mensal (todas as contas)",
      "line",
      FORECAST,
      [
        { $match: { rf: "actual" } },
        { $group: { _id: { $dateToString: { format: "%Y-%m", date: "$data_ref" } }, realizado: { $sum: "$value" } } },
        { $sort: { _id: 1 } },
        { $project: { _id: 0, label: "$_id", realizado: { $round: ["$realizado", 2] } } },
      ],
      { label: "Mês", realizado: "Realizado" },
    ),
  ];
}

function storeCharts(ctx: SeedContext): DashboardChart[] {
  const lastMonth = monthStart(ctx.reference);
  return [
    chart(
      "store-sales",
      "Vendas adicionais e de serviços por filial (mês de referência)",
      "bar",
      HR_AUX,
      [
        { $match: { mes_apur: lastMonth } },
        {
          $group: {
            _id: "$filial_nome",
            vendas_adicionais: { $sum: "$vendas_adicionais" },
            vendas_servicos: { $sum: "$vendas_servicos" },
          },
        },
        { $sort: { _id: 1 } },
        {
          $project: {
            _id: 0,
            label: "$_id",
            vendas_adicionais: { $round: ["$vendas_adicionais", 2] },
            vendas_servicos: { $round: ["$vendas_servicos", 2] },
          },
        },
      ],
      { label: "Filial", vendas_adicionais: "Vendas adicionais", vendas_servicos: "Vendas de serviços" },
    ),
  ];
}

function jobCharts(): DashboardChart[] {
  const failed = { $ne: ["$status", 0] };
  const statusLabel = {
    $cond: [
      failed,
      "Erro",
      {
        $cond: [
          { $eq: ["$progress", 100] },
          "Concluído",
          { $cond: [{ $eq: ["$progress", 0] }, "Aguardando", "Em andamento"] },
        ],
      },
    ],
  };
  return [
    chart(
      "jobs-summary",
      "Resumo dos jobs",
      "kpi",
      FILES,
      [
        {
          $facet: {
            total: [{ $count: "n" }],
            erros: [{ $match: { status: { $ne: 0 } } }, { $count: "n" }],
          },
        },
        {
          $project: {
            value: { $ifNull: [{ $arrayElemAt: ["$total.n", 0] }, 0] },
            erros: { $ifNull: [{ $arrayElemAt: ["$erros.n", 0] }, 0] },
          },
        },
      ],
      { value: "Jobs", erros: "Com erro" },
    ),
    chart(
      "jobs-by-status-per-day",
      "Jobs por status por dia (últimos 30 dias com atividade)",
      "bar",
      FILES,
      [
        {
          $group: {
            _id: { $dateToString: { format: "%Y-%m-%d", date: "$statusChangeDate" } },
            concluidos: countIf({ $and: [{ $eq: ["$status", 0] }, { $eq: ["$progress", 100] }] }),
            em_andamento: countIf({ $and: [{ $eq: ["$status", 0] }, { $lt: ["$progress", 100] }] }),
            com_erro: countIf(failed),
          },
        },
        { $sort: { _id: -1 } },
        { $limit: 30 },
        { $sort: { _id: 1 } },
        { $project: { _id: 0, label: "$_id", concluidos: 1, em_andamento: 1, com_erro: 1 } },
      ],
      { label: "Dia", concluidos: "Concluídos", em_andamento: "Em andamento", com_erro: "Com erro" },
    ),
    chart(
      "jobs-by-status",
      "Jobs por status",
      "pie",
      FILES,
      [
        { $addFields: { statusLabel } },
        { $group: { _id: "$statusLabel", value: { $sum: 1 } } },
        { $sort: { value: -1 } },
        { $project: { _id: 0, label: "$_id", value: 1 } },
      ],
      { label: "Status", value: "Jobs" },
    ),
  ];
}

function uploaderCharts(): DashboardChart[] {
  return [
    chart(
      "files-by-user",
      "Arquivos enviados por usuário (top 10)",
      "table",
      FILES,
      [
        { $group: { _id: "$user", arquivos: { $sum: 1 }, com_erro: countIf({ $ne: ["$status", 0] }) } },
        { $sort: { arquivos: -1, _id: 1 } },
        { $limit: 10 },
        { $project: { _id: 0, usuario: "$_id", arquivos: 1, com_erro: 1 } },
      ],
      { usuario: "Usuário", arquivos: "Arquivos", com_erro: "Com erro" },
    ),
    chart(
      "files-by-agent",
      "Arquivos por origem",
      "pie",
      FILES,
      [
        { $group: { _id: "$agent", value: { $sum: 1 } } },
        { $sort: { value: -1 } },
        { $project: { _id: 0, label: "$_id", value: 1 } },
      ],
      { label: "Origem", value: "Arquivos" },
    ),
  ];
}

/** Six dashboards (four Intelligent Journey, two executed-jobs), each with native charts. Not scaled. */
export function generateDashboards(ctx: SeedContext): DashboardRecord[] {
  const random = ctx.random.fork("dashboards");
  const defs: [string, 1 | 2, DashboardChart[]][] = [
    ["Planejamento de Quantidades", PANEL_TYPES.intelligentJourney, planningCharts()],
    ["Master Data OK x NOK", PANEL_TYPES.intelligentJourney, masterDataCharts()],
    ["Forecast x Realizado", PANEL_TYPES.intelligentJourney, forecastCharts(ctx)],
    ["Desempenho das Lojas", PANEL_TYPES.intelligentJourney, storeCharts(ctx)],
    ["Jobs por status", PANEL_TYPES.executedJobs, jobCharts()],
    ["Arquivos por usuário", PANEL_TYPES.executedJobs, uploaderCharts()],
  ];
  return defs.map(([panelLabel, panelType, charts], i) => ({
    _id: random.objectId(addDays(ctx.reference, -300 + i)),
    dashboardId: random.uuid(),
    panelLabel,
    panelType,
    painelId: i + 1,
    cliente: ctx.tenantId,
    charts,
  }));
}
