/**
 * The forecast review grid's own texts (spec 001; "ours" marked): what the review's page draws in the browser, apart
 * from the filter, the calendar, "Distribuir total" and the server's answers (`forecastTexts` in texts.ts gathers
 * them all), so the review's script carries only these; the dialogs a click opens have theirs (dialog-texts.ts).
 */

export const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

/** " (2 de 5 meses)" where a year's total compares fewer months than it has; " (nenhum mês em comum)" for none. */
function comparedMonthsNote(months?: { compared: number; of: number }): string {
  if (!months || months.compared >= months.of) return "";
  return months.compared === 0 ? " (nenhum mês em comum)" : ` (${months.compared} de ${months.of} meses)`;
}

export const gridTexts = {
  // spec 001 §2: the breadcrumb back to the filter
  filtering: "Filtering",

  // ours: the filter
  filterTitle: "Revisão de forecast por centro de custo",
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
    "Setas, Enter e Tab navegam; Enter ou F2 edita; Esc cancela; Delete zera; Ctrl+V cola do Excel; Ctrl+Z desfaz; Shift+F2 abre os comentários.",

  // ours: toolbar and status
  save: "Salvar",
  saveCount: (n: number) => `Salvar (${n.toLocaleString("pt-BR")})`,
  undoAll: "Desfazer alterações",
  undoLast: "Desfazer última",
  history: "Histórico da célula",
  comments: "Comentários",
  commentsOfReview: "Comentários das células",
  commentMarker: "Tem comentários (Shift+F2 abre)",
  spread: "Distribuir total",
  massChange: "Alteração em massa",
  massChangeOf: (column: string) => `Alteração em massa: ${column}`,
  pending: (n: number) =>
    `${plural(n, "célula alterada", "células alteradas")} ainda não ${n === 1 ? "salva" : "salvas"}.`,
  noPending: "Nenhuma alteração pendente.",
  invalidNumber: "Número inválido. Use o formato 1.234,56.",
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

  // ours: mass change (its dialog's texts: dialog-texts.ts)
  massChanged: (n: number) => `${plural(n, "célula alterada", "células alteradas")}.`,

  // ours: a refused save (the server's own answers: texts.ts)
  saveFailedTitle: "Não foi possível salvar",
  keepMine: "Manter meus valores",
  useCurrent: "Usar os valores atuais",

  // ours: the cell history
  sinceMarker: "Alteração a revisar (desde a última devolução ou aprovação, ou o primeiro envio)",
  restored: (value: string) => `Valor ${value} restaurado na célula. Salve para gravar.`,
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
  spreadLaunch: "Distribuir total de uma conta",
} as const;
