/** The status board (/ij/forecast_status) and "Meus centros de custo" on the review's filter (ours). */
export const boardTexts = {
  title: "Situação do forecast por centro de custo",
  intro:
    "Cada centro de custo do RF com sua situação no ciclo (Em preparação, Enviado, Devolvido, Aprovado; Não enviado depois do mês de edição), quem prepara, a última mudança e os dias até o fim do mês de edição.",
  rf: "RF",
  stateFilter: "Situação",
  levelFilter: "Nível / área",
  all: "Todos",
  apply: "Filtrar",
  export: "Exportar Excel",
  costCenter: "Centro de custo",
  level: "Nível / área",
  state: "Situação",
  preparers: "Responsáveis",
  lastChange: "Última mudança",
  lastChangeBy: "Por",
  daysLeft: "Dias até o fim da edição",
  ended: "encerrado",
  empty: "Nenhum centro de custo com esses filtros.",
  noScenarios: "Ainda não há períodos de forecast cadastrados.",
  countsCaption: (rf: string, total: number) =>
    `${rf}: ${total.toLocaleString("pt-BR")} ${total === 1 ? "centro de custo" : "centros de custo"} · mês de edição`,
  open: "Abrir",
  preparersLink: "Responsáveis pela preparação",
  // On the review's filter, for whoever prepares cost centres (ours).
  mineTitle: "Meus centros de custo",
  mineIntro: (rf: string) =>
    `Os centros de custo que você prepara, no ${rf}: a situação e os dias até o fim da edição.`,
  mineCaption: "Meus centros de custo",
  mineOption: "você prepara",
  // "Meus centros de custo", a screen of its own in the menu too (ours).
  mineScreenIntro: (rf: string) =>
    `Os centros de custo que você prepara, no ${rf}: a situação, os dias até o fim da edição e, quando o revisor devolveu o forecast, o motivo.`,
  mineNone: "Você não é responsável pela preparação de nenhum centro de custo.",
  mineNoneInRf: "Nenhum dos centros de custo que você prepara está no forecast do RF aberto.",
  returnReason: "Motivo da devolução",
  returnedBy: (name: string, at: string) => `Devolvido por ${name} em ${at}`,
};
