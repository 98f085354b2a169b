/**
 * The texts of what a dashboard shows a user (dashboards.server.ts): features/dashboards/texts.ts includes them in
 * dashboardTexts (app/messages.ts gathers those).
 */
export const dashboardProviderTexts = {
  // ours: dashboards (spec 000 §8 "the error shown in an alert")
  dashboardUnexpected: "O serviço de painéis não respondeu como esperado. Tente novamente.",
  // Performance: the first view after a data change while the figures are being computed.
  chartComputing: "Os números deste gráfico estão sendo calculados. Atualize a página em instantes.",
} as const;
