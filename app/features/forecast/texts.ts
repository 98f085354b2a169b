/**
 * User-visible texts of the Cost-centre forecast review (spec 001): the spec's verbatim, the rest marked "ours"
 * (docs/decisions.md). Re-exported by app/messages.ts; defined only here. The spec's shared texts are defined in
 * app/shared/ui/texts.ts (which messages.ts names too) and reused from there: "Salvando Dados..." (savingData), "Salvo
 * com sucesso!" (saved), "Fixar coluna" / "Desfixar coluna" (pinColumn / unpinColumn), "Aumentar" / "Diminuir"
 * (increase / decrease), "Close", "Cancelar".
 */

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

/** " (2 de 5 meses)" where a year's total compares fewer months than it has; " (nenhum mês em comum)" for none. */
function comparedMonthsNote(months?: { compared: number; of: number }): string {
  if (!months || months.compared >= months.of) return "";
  return months.compared === 0 ? " (nenhum mês em comum)" : ` (${months.compared} de ${months.of} meses)`;
}

export const forecastTexts = {
  // The filter (spec 001 §2: "select Period and Cost Center (searchable). Generate Review … The breadcrumb Filtering")
  period: "Period",
  costCenter: "Cost Center",
  generateReview: "Generate Review",
  filtering: "Filtering",

  // ours: the filter
  filterTitle: "Revisão de forecast por centro de custo",
  filterIntro: "Escolha o período (release point) e o centro de custo para abrir a grade mensal de forecast.",
  periodPlaceholder: "Selecione o período",
  periodOpenSuffix: "aberto para edição",
  costCenterPlaceholder: "Digite o código ou o nome",
  costCenterHint: "Digite parte do código ou do nome e escolha na lista.",
  filterIncomplete: "Escolha um período e um centro de custo da lista.",
  unknownPeriod: "Período desconhecido: escolha um da lista.",
  unknownCostCenter: (text: string) => `Nenhum centro de custo corresponde a “${text}”: escolha um da lista.`,
  ambiguousCostCenter: (text: string, n: number) =>
    `${n} centros de custo correspondem a “${text}”: escolha um da lista.`,
  noScenarios: "Ainda não há períodos de forecast cadastrados.",
  calendarLink: "Calendário de revisões",

  // ours: the scenarios overview (/ij/report_preview_schneider)
  calendarTitle: "Calendário de revisões de forecast",
  calendarIntro:
    "Cada período (release point) é revisado no mês seguinte à sua data âncora; fora desse mês a grade fica bloqueada. As colunas até o mês da âncora mostram o realizado; as seguintes, o forecast.",
  columnPeriod: "Período",
  columnAnchor: "Âncora",
  columnEditMonth: "Mês de edição",
  columnWindow: "Janela",
  columnState: "Situação",
  columnCostCenters: "Centros de custo",
  stateOpen: "Aberto para edição",
  stateLocked: "Bloqueado",
  review: "Revisar",
  reviewOf: (rf: string) => `Revisar ${rf}`,
  windowRange: (from: string, to: string) => `${from} a ${to}`,

  // ours: the review grid
  breadcrumbReview: "Revisão",
  breadcrumbLabel: "Trilha de navegação",
  facts: (anchor: string, editMonth: string, from: string, to: string) =>
    `Âncora ${anchor} · mês de edição ${editMonth} · janela ${from} a ${to}`,
  openNotice: (editMonth: string, until: string) =>
    `Edição aberta até ${until}: as colunas de forecast a partir de ${editMonth} podem ser alteradas. Dê dois cliques numa célula (ou digite sobre ela), cole valores do Excel com Ctrl+V e salve.`,
  /** The grid outside its edit month: editing closed (its edit month is past) or opening later. */
  lockedNotice: (editMonth: string, when: "closed" | "upcoming") =>
    when === "closed"
      ? `Grade bloqueada: a edição deste RF encerrou em ${editMonth}.`
      : `Grade bloqueada: a edição deste RF abre em ${editMonth}.`,
  readOnlyNotice: "Você pode consultar esta grade, mas não alterá-la.",
  noScriptNotice: "Sem JavaScript a grade é somente leitura. Ative o JavaScript do navegador para editar os valores.",
  noData: "Não há lançamentos de forecast para este centro de custo neste período.",
  invalidScenario: "Período inválido: escolha um período na tela de filtro.",
  unknownReview: "Não há dados para este período e centro de custo.",
  gridCaption: (rf: string, costCenter: string) => `Forecast ${rf} — ${costCenter}`,
  accountColumn: "Conta",
  actualTag: "Real",
  forecastTag: "Forecast",
  totalColumn: (year: number) => `Total ${year}`,
  partialYear: (months: number) => plural(months, "mês", "meses"),
  groupTotal: (group: string) => `Total ${group}`,
  grandTotal: "Total do centro de custo",
  edited: "editado",
  moreOptions: "Excel e atalhos de teclado",
  keyboardHelp:
    "Setas, Enter e Tab navegam; Enter ou F2 edita; Esc cancela; Delete zera; Ctrl+V cola do Excel; Ctrl+Z desfaz.",

  // ours: toolbar and status
  save: "Salvar",
  saveCount: (n: number) => `Salvar (${n.toLocaleString("pt-BR")})`,
  undoAll: "Desfazer alterações",
  undoLast: "Desfazer última",
  history: "Histórico da célula",
  massChange: "Alteração em massa",
  massChangeOf: (column: string) => `Alteração em massa: ${column}`,
  pending: (n: number) =>
    `${plural(n, "célula alterada", "células alteradas")} ainda não ${n === 1 ? "salva" : "salvas"}.`,
  noPending: "Nenhuma alteração pendente.",
  invalidNumber: "Número inválido. Use o formato 1.234,56.",
  cellInput: (account: string, month: string) => `${account}, ${month}`,

  leaveTitle: "Alterações não salvas",
  leavePrompt: (n: number) =>
    `${plural(n, "célula alterada ainda não foi salva", "células alteradas ainda não foram salvas")}. Sair sem salvar?`,
  leave: "Sair sem salvar",
  stay: "Continuar editando",

  // ours: paste
  pasted: (pasted: number, skipped: number, outside: number) =>
    [
      `${plural(pasted, "valor colado", "valores colados")}.`,
      skipped ? `${plural(skipped, "célula ignorada", "células ignoradas")} (bloqueadas ou de grupo/total).` : "",
      outside ? `${plural(outside, "valor ficou", "valores ficaram")} fora da grade.` : "",
    ]
      .filter(Boolean)
      .join(" "),
  pasteNotNumber: (text: string, line: number, column: number) =>
    `Nada foi colado: “${text}” (linha ${line}, coluna ${column}) não é um número no formato 1.234,56.`,
  pasteNoCell: "Clique numa célula da grade antes de colar.",
  pasteTooLarge: (max: number) => `Nada foi colado: cole no máximo ${max.toLocaleString("pt-BR")} células de uma vez.`,

  // ours: mass change (spec 001 §5: percent + Aumentar/Diminuir, detail rows with a value, 2 decimals)
  massChangeDescription:
    "O percentual é aplicado às contas com valor nesta coluna; o resultado é arredondado para 2 casas decimais.",
  percentLabel: "Percentual (%)",
  directionLabel: "Operação",
  apply: "Aplicar",
  percentInvalid: "Informe um percentual entre 0 e 1.000.000, como 10 ou 2,5.",
  decreaseTooLarge: "Para diminuir, use no máximo 100%.",
  massChanged: (n: number) => `${plural(n, "célula alterada", "células alteradas")}.`,

  // ours: save outcomes (the server's answers; nothing is written when one of these is returned)
  saveFailedTitle: "Não foi possível salvar",
  nothingSaved: "Nada foi salvo.",
  nothingToSave: "Não há alterações para salvar.",
  lockedRefused: (rf: string, editMonth: string) =>
    `O período ${rf} está bloqueado: só pode ser alterado em ${editMonth}. Nada foi salvo.`,
  columnRefused: (month: string) =>
    `A coluna ${month} não pode ser alterada (realizado ou fora da janela). Nada foi salvo.`,
  rowRefused: (row: string) =>
    `“${row}” não é uma conta editável deste centro de custo (linhas de grupo e de total não são editáveis). Nada foi salvo.`,
  cellMissing: (account: string, month: string) => `Não há lançamento de ${account} em ${month}. Nada foi salvo.`,
  tooManyDecimals: (value: string) => `O valor ${value} tem mais de 2 casas decimais. Nada foi salvo.`,
  valueOutOfRange: "Valor fora do limite de 15 dígitos. Nada foi salvo.",
  notANumber: (text: string) => `“${text}” não é um número. Nada foi salvo.`,
  duplicateCell: (account: string, month: string) =>
    `A célula ${account}, ${month} foi enviada duas vezes. Nada foi salvo.`,
  tooManyCells: (max: number) => `Envie no máximo ${max.toLocaleString("pt-BR")} células por vez. Nada foi salvo.`,
  invalidSave: "Não foi possível ler as alterações enviadas. Recarregue a página e tente novamente. Nada foi salvo.",
  conflicts: (n: number) =>
    `${plural(n, "célula foi alterada", "células foram alteradas")} por outra pessoa desde que você abriu a grade. Nada foi salvo: revise as células marcadas.`,
  conflictsAfterSave: (saved: number, n: number) =>
    `${plural(saved, "célula salva", "células salvas")}; ${plural(n, "célula foi alterada", "células foram alteradas")} por outra pessoa no mesmo instante e não ${n === 1 ? "foi salva" : "foram salvas"}: revise as células marcadas.`,
  conflictCell: (who: string, when: string, value: string) => `Alterada por ${who} em ${when}; valor atual ${value}.`,
  keepMine: "Manter meus valores",
  useCurrent: "Usar os valores atuais",

  // ours: the cell history
  historyTitle: (account: string, month: string) => `Histórico: ${account}, ${month}`,
  historyWhen: "Quando",
  historyWho: "Quem",
  historyOld: "Valor anterior",
  historyNew: "Novo valor",
  historyEmpty: "Esta célula ainda não foi alterada no portal.",
  historyLoading: "Carregando…",
  historyFailed: "Não foi possível carregar o histórico. Tente novamente.",
  historyPickCell: "Clique numa conta e num mês da grade para ver o histórico da célula.",
  sinceMarker: "Alterada desde o último envio",
  restore: "Restaurar",
  restoreOf: (value: string) => `Restaurar ${value}`,
  restored: (value: string) => `Valor ${value} restaurado na célula. Salve para gravar.`,
  // ours: the columns of the review's Excel export
  excelGroup: "Grupo",
  excelDescription: "Descrição",

  // ours: the variance columns of the review grid and its Excel export
  /** The review's "vs versão" group (a version's own texts: versions/texts.ts, which the review need not load). */
  versionCompare: {
    label: "Comparar com a versão",
    none: "Nenhuma",
    hint: (name: string) => `Diferenças em relação à versão “${name}” (valores gravados): Δ = atual − versão.`,
    totalVersion: (year: number, name: string) => `Total ${year} ${name}`,
    totalAbs: (year: number) => `Δ versão ${year}`,
    totalPct: (year: number) => `Δ% versão ${year}`,
    monthAbs: (month: string) => `Δ versão ${month}`,
    monthPct: (month: string) => `Δ% versão ${month}`,
  },
  variance: {
    legend: "Colunas de diferenças",
    groupRf: "RF atual − RF anterior, por mês (valor e %)",
    groupActual: "Forecast − realizado (meses fechados)",
    groupTotal: "Total do ano (realizado + forecast) × RF anterior",
    show: "Mostrar colunas",
    hint: (rf: string) =>
      `Diferenças em relação a ${rf}, calculadas com os valores gravados: salve as alterações para atualizá-las.`,
    pendingFirst: "Salve ou desfaça as alterações antes de mudar as colunas de diferenças.",
    noPrevious: (rf: string) => `${rf} não tem lançamentos deste centro de custo: as diferenças mostram “—”.`,
    rfAbs: (month: string) => `Δ RF ${month}`,
    rfPct: (month: string) => `Δ% RF ${month}`,
    actualAbs: (month: string) => `F−R ${month}`,
    actualPct: (month: string) => `F−R% ${month}`,
    totalPrevious: (year: number, rf: string, months?: { compared: number; of: number }) =>
      `Total ${year} ${rf}${comparedMonthsNote(months)}`,
    /** Which of the year's months a total compares, when not all: both RFs' windows must hold a month. */
    comparedMonths: comparedMonthsNote,
    totalAbs: (year: number) => `Δ Total ${year}`,
    totalPct: (year: number) => `Δ% Total ${year}`,
    tagPrevious: "Anterior",
    tagDiff: "Diferença",
    tagPercent: "%",
  },
  // ours: "Distribuir total" (docs/decisions.md "Forecast review")
  spreadTitle: "Distribuir total",
  spreadLaunch: "Distribuir total de uma conta",
  spreadAccount: "Conta",
  spreadIntro: (months: number) =>
    `Informe o total dos ${months} meses abertos e como distribuí-lo. Cada mês é arredondado aos centavos; a sobra do arredondamento vai para o último mês, e o total fica exato. Os meses fechados não mudam.`,
  spreadTotal: "Total dos meses abertos (R$)",
  spreadMode: "Como distribuir",
  spreadModes: {
    igual: "Igualmente",
    rf_anterior: "Como os meses do RF anterior",
    realizado_ano_anterior: "Como o realizado do ano anterior",
    pesos: "Por pesos informados",
  } as Record<string, string>,
  spreadWeights: "Pesos (um por mês aberto, separados por ;)",
  spreadWeightsHint: (months: string) => `Na ordem dos meses: ${months}. Exemplo: 1;1;2`,
  spreadPreview: "Ver a distribuição",
  spreadPreviewTitle: "Prévia",
  spreadMonth: "Mês",
  spreadCurrent: "Atual",
  spreadNew: "Distribuído",
  spreadConfirm: "Salvar a distribuição",
  spreadBack: "Voltar à revisão",
  spreadFellBack: (mode: string) => `Sem base para distribuir ${mode.toLowerCase()}: distribuído igualmente.`,
  spreadSaved: (months: number) => `Total distribuído em ${months} meses.`,
  spreadHistory: "distribuído",
  spreadClosed: "Não há meses abertos para edição nesta revisão agora.",
  spreadReadOnly: "Só quem edita a revisão distribui totais.",
  spreadUnknownAccount: "Conta não encontrada nesta revisão.",
  spreadTotalInvalid: "Informe o total como número (ex.: 1.234,50).",
  spreadWeightsInvalid: (months: number) =>
    `Informe ${months} pesos, números maiores ou iguais a zero, separados por ;.`,
  spreadChanged: "Os valores mudaram desde a prévia: confira a nova prévia antes de salvar.",
} as const;
