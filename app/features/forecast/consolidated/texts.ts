/** Texts of the consolidated forecast (/ij/forecast_consolidado) and its export; all ours (docs/decisions.md). */

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

export const consolidatedTexts = {
  menu: "Forecast consolidado",
  title: "Forecast consolidado",
  intro:
    "O forecast da empresa por área, centro de custo, grupo de contas e conta, nos meses do ano do RF (realizado nos meses fechados, forecast nos demais), com o total do ano, a situação do ciclo e comparações com o RF anterior, o realizado e as versões salvas.",
  rf: "RF",
  shown: "Mostrar",
  compare: "Comparar com",
  noComparison: "Sem comparação",
  columns: "Colunas de comparação",
  columnTotal: "Total do ano (total, Δ, Δ%)",
  columnMonths: "Cada mês (Δ, Δ%)",
  approvedOnly: "Somente aprovados",
  apply: "Aplicar",
  export: "Exportar Excel",
  versionsLink: "Versões salvas",
  statusLink: "Situação por centro de custo",
  sources: {
    rf: (rf: string) => `${rf} (atual)`,
    previous: (rf: string) => `${rf} (RF anterior)`,
    actual: "Realizado",
    actualOf: (year: number) => `Realizado de ${year}`,
    version: (name: string) => `Versão: ${name}`,
  },
  /** A column of figures' short name in headers. */
  shortSource: {
    rf: (rf: string) => rf,
    previous: (rf: string) => rf,
    actual: "Realizado",
    version: (name: string) => name,
  },
  expandTo: "Expandir até:",
  levels: ["Áreas", "Centros de custo", "Grupos de contas", "Contas"],
  open: (label: string) => `Abrir ${label}`,
  close: (label: string) => `Fechar ${label}`,
  reviewOf: (cc: string) => `Revisão de ${cc}`,
  tableCaption: (rf: string, source: string) => `Forecast consolidado ${rf}: ${source}`,
  rowLabel: "Área / centro de custo / grupo / conta",
  actualTag: "Real",
  forecastTag: "Forecast",
  total: (year: number) => `Total ${year}`,
  /** The year's total beside a comparison over fewer months: it sums the whole year. */
  wholeYear: (year: number) => `Total ${year} (ano inteiro)`,
  totalOf: (year: number, source: string) => `Total ${year} ${source}`,
  /** Under the tree when the two sides cover different months (the headers name them too). */
  sameMonths: (span: string, year: number) =>
    `Os totais comparados e suas diferenças somam só os meses que os dois lados têm (${span}); o Total ${year} (ano inteiro) soma todos os meses.`,
  /** The actuals of another year beside the RF's months. */
  actualsOfYear: (actualYear: number, year: number) =>
    `Comparação com o realizado de ${actualYear}: cada mês de ${year} ao lado do mesmo mês de ${actualYear}.`,
  noActuals: (year: number) => `Ainda não há realizado de ${year}.`,
  noActualsAtAll: "Não há realizado de nenhum ano nos centros de custo que você vê.",
  compareActualsOf: (year: number) => `Comparar com o realizado de ${year}`,
  diff: "Δ",
  diffPct: "Δ%",
  monthDiff: (month: string) => `Δ ${month}`,
  monthDiffPct: (month: string) => `Δ% ${month}`,
  company: "Total da empresa",
  companyScoped: "Total dos seus centros de custo",
  noArea: "(sem área)",
  dash: "—",
  scopeNote: (n: number) =>
    `Você vê somente os centros de custo que prepara (${plural(n, "centro de custo", "centros de custo")}); os totais são a soma deles.`,
  scopeNone: "Você não prepara nenhum centro de custo: não há valores a mostrar.",
  approvedNote: "Somente os centros de custo aprovados entram nos valores e totais.",
  noScenarios: "Ainda não há períodos de forecast cadastrados.",
  empty: "Nenhum centro de custo para mostrar com estas escolhas.",
  versionMissing: "A versão pedida não existe mais (foi excluída?): escolha outra.",
  invalidQuery: "Endereço inválido: alguns parâmetros foram ignorados.",
  // The cycle's summary
  cycleTitle: "Situação do ciclo",
  cycleCaption: (rf: string) => `Centros de custo por situação e participação no total do ano (${rf})`,
  areaColumn: "Área",
  companyRow: "Empresa",
  stateCell: (count: number, share: string) => `${count.toLocaleString("pt-BR")} (${share})`,
  // Saving a version
  saveTitle: "Salvar uma versão deste RF",
  saveHint:
    "Uma versão guarda os valores atuais de todo o RF (todos os centros de custo, contas e meses) e não muda mais.",
  saveName: "Nome da versão",
  saveButton: "Salvar versão",
  saveNameRequired: "Dê um nome à versão (até 120 caracteres).",
  saved: (name: string) => `Versão “${name}” salva.`,
  saveRefused: "Seu perfil não pode salvar versões.",
  // Excel
  excelSheet: "Consolidado",
  excelFile: (rf: string) => `forecast-consolidado-${rf.replace(/\s+/g, "-")}.xlsx`,
  excelLevel: "Nível",
  excelLevels: { company: "Empresa", area: "Área", costCentre: "Centro de custo", group: "Grupo", account: "Conta" },
  excelState: "Situação",
};
