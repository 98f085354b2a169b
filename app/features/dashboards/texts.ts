/**
 * User-visible texts of the dashboards and their charts (spec 000 §2, §8): the spec's
 * verbatim, the rest marked "ours" (docs/decisions.md). Re-exported by app/messages.ts; defined only here (a module of its own, so pages without
 * them do not download them).
 */
import { dashboardProviderTexts } from "~/platform/dashboards/texts";

export const dashboardTexts = {
  // What a dashboard shows when its provider cannot answer (app/platform/dashboards/texts.ts)
  ...dashboardProviderTexts,
  // ours: dashboards (spec 000 §8 "the error shown in an alert")
  dashboardPageTitle: "Dashboard",
  dashboardEmbedFailedTitle: "Não foi possível carregar o painel",
  dashboardAccessDenied: "O QuickSight negou acesso a este painel para o seu usuário.",
  dashboardNotFound: "O painel não foi encontrado no QuickSight.",
  dashboardThrottled: "O QuickSight está sobrecarregado no momento. Tente novamente em alguns instantes.",
  dashboardNotConfigured: "O QuickSight não está configurado neste ambiente.",
  dashboardRenewFailed: "A sessão do painel não pôde ser renovada. Recarregue a página.",
  dashboardFrameError: (code: string | null, detail: string | null) =>
    `O QuickSight informou um erro ao exibir o painel${code ? ` (código ${code})` : ""}${detail ? `: ${detail}` : "."}`,
  dashboardNoCharts: "Este painel ainda não tem gráficos.",
  chartFailed: "Não foi possível calcular este gráfico.",
  chartTableFallback: "Dados do gráfico",
  chartCategory: "Categoria",
  chartTotal: "Total",
  chartUntitled: "Gráfico sem título",
  chartYes: "Sim",
  chartNo: "Não",
  chartsInvalid: "A lista de gráficos deste painel está mal definida.",
  chartInvalidDefinition: "A definição deste gráfico está incompleta ou mal formada.",
  chartPipelineNotEjson: "O pipeline do gráfico não é um EJSON válido.",
  chartPipelineNotList: "O pipeline do gráfico deve ser uma lista de etapas.",
  chartStageShape: "Cada etapa do pipeline deve ter exatamente um operador iniciado por $.",
  chartStageNotAllowed: (stage: string) => `A etapa ${stage} não é permitida em um gráfico.`,
  chartOperatorNotAllowed: (operator: string) => `O operador ${operator} não é permitido em um gráfico.`,
  chartCollectionNotAllowed: (name: string) => `A coleção ${name} não pode ser lida por um gráfico.`,
  chartRunFailed: "O banco de dados não conseguiu executar o pipeline deste gráfico.",
  // ours: a chart that would read rows outside the viewer's scope (HR branches) through a $lookup
  chartRowsNotAllowed: "Este gráfico reúne dados de filiais fora do seu acesso e não é exibido para você.",
  chartCostCentresNotAllowed:
    "Este gráfico reúne o forecast de centros de custo fora do seu acesso e não é exibido para você.",
} as const;
