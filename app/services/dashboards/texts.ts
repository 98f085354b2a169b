/**
 * Texts of the dashboard screens that the spec leaves to us ("the error shown in an alert", spec 000 §8).
 * Kept here until they move into app/messages.ts; shared by server and browser.
 */
export const dashboardTexts = {
  embedFailedTitle: "Não foi possível carregar o painel",
  accessDenied: "O QuickSight negou acesso a este painel para o seu usuário.",
  notFound: "O painel não foi encontrado no QuickSight.",
  throttled: "O QuickSight está sobrecarregado no momento. Tente novamente em alguns instantes.",
  notConfigured: "O QuickSight não está configurado neste ambiente.",
  unexpected: "O serviço de painéis não respondeu como esperado. Tente novamente.",
  renewFailed: "A sessão do painel não pôde ser renovada. Recarregue a página.",
  loading: "Carregando painel…",
  chartFailed: "Não foi possível calcular este gráfico.",
  noCharts: "Este painel ainda não tem gráficos.",
  tableFallback: "Dados do gráfico",
} as const;
