/**
 * The forecast review grid's own texts (spec 001; "ours" marked): what the review's page draws in the browser, apart
 * from the filter, the calendar, "Distribuir total" and the server's answers (`forecastTexts` in texts.ts gathers
 * them all), so the review's script carries only these; the dialogs a click opens have theirs (dialog-texts.ts), and
 * what the grid shows only once its editing code has loaded in the browser (toolbar, paste) is in edit-texts.ts.
 */

export const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

const MONTH_NAMES = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"];
/** "2027-03" → "mar/27". */
const shortMonth = (key: string) => `${MONTH_NAMES[Number(key.slice(5, 7)) - 1]}/${key.slice(2, 4)}`;
const monthIndexOf = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7));

/**
 * Month keys ("2027-01"…, in order) as runs of consecutive months: "jan–ago/27", "nov/26–fev/27", "jan–mar/27,
 * jun/27"; the year is said once per run when the run stays in one year.
 */
export function monthSpan(keys: readonly string[]): string {
  const runs: [string, string][] = [];
  for (const key of keys) {
    const last = runs[runs.length - 1];
    if (last && monthIndexOf(key) === monthIndexOf(last[1]) + 1) last[1] = key;
    else runs.push([key, key]);
  }
  return runs
    .map(([from, to]) =>
      from === to
        ? shortMonth(from)
        : from.slice(0, 4) === to.slice(0, 4)
          ? `${MONTH_NAMES[Number(from.slice(5, 7)) - 1]}–${shortMonth(to)}`
          : `${shortMonth(from)}–${shortMonth(to)}`,
    )
    .join(", ");
}

/** The months a year's comparison covers: how many of how many, and which (month keys), when known. */
export type ComparedMonths = { compared: number; of: number; keys?: readonly string[] };

/**
 * " (jan–ago/27, 8 de 12 meses)" where a year's comparison covers fewer months than the year has (both totals then
 * sum only those); " (nenhum mês em comum)" for none; nothing when it covers them all.
 */
export function comparedMonthsNote(months?: ComparedMonths): string {
  if (!months || months.compared >= months.of) return "";
  if (months.compared === 0) return " (nenhum mês em comum)";
  const span = months.keys && months.keys.length > 0 ? `${monthSpan(months.keys)}, ` : "";
  return ` (${span}${months.compared} de ${months.of} meses)`;
}

/** The months alone (" (jan–ago/27)"), under a Δ beside the totals that say them in full; nothing for all. */
export function comparedSpan(months?: ComparedMonths): string {
  if (!months || months.compared >= months.of || months.compared === 0 || !months.keys?.length) return "";
  return ` (${monthSpan(months.keys)})`;
}

export const gridTexts = {
  // spec 001 §2: the breadcrumb back to the filter
  filtering: "Filtering",

  // ours: the filter
  filterTitle: "Revisão de forecast por centro de custo",
  // ours: the review grid (what its page's loader words: review-page-texts.ts)
  breadcrumbReview: "Revisão",
  breadcrumbLabel: "Trilha de navegação",
  noScriptNotice: "Sem JavaScript a grade é somente leitura. Ative o JavaScript do navegador para editar os valores.",
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

  // ours: toolbar and status (the rest, which only the grid in a running browser shows: edit-texts.ts)
  comments: "Comentários",
  commentsOfReview: "Comentários das células",
  commentMarker: "Tem comentários (Shift+F2 abre)",
  massChange: "Alteração em massa",
  massChangeOf: (column: string) => `Alteração em massa: ${column}`,

  // ours: mass change (its dialog's texts: dialog-texts.ts)
  massChanged: (n: number) => `${plural(n, "célula alterada", "células alteradas")}.`,

  // ours: a refused save (the server's own answers: texts.ts; its two ways out: edit-texts.ts)
  saveFailedTitle: "Não foi possível salvar",

  // ours: the cell history
  sinceMarker: "Alteração a revisar (desde a última devolução ou aprovação, ou o primeiro envio)",
  restored: (value: string) => `Valor ${value} restaurado na célula. Salve para gravar.`,
  // ours: the variance columns of the review grid and its Excel export
  /** The review's "vs versão" group (a version's own texts: versions/texts.ts, which the review need not load). */
  versionCompare: {
    label: "Comparar com a versão",
    none: "Nenhuma",
    hint: (name: string) => `Diferenças em relação à versão “${name}” (valores gravados): Δ = atual − versão.`,
    totalVersion: (year: number, name: string, months?: ComparedMonths) =>
      `Total ${year} ${name}${comparedMonthsNote(months)}`,
    totalAbs: (year: number, months?: ComparedMonths) => `Δ versão ${year}${comparedSpan(months)}`,
    totalPct: (year: number, months?: ComparedMonths) => `Δ% versão ${year}${comparedSpan(months)}`,
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
    /** This RF's total over the months the comparison covers (shown when fewer than the year's). */
    totalCurrent: (year: number, months?: ComparedMonths) => `Total ${year}${comparedMonthsNote(months)}`,
    totalPrevious: (year: number, rf: string, months?: ComparedMonths) =>
      `Total ${year} ${rf}${comparedMonthsNote(months)}`,
    /** Which of the year's months a total compares, when not all: both RFs' windows must hold a month. */
    comparedMonths: comparedMonthsNote,
    totalAbs: (year: number, months?: ComparedMonths) => `Δ Total ${year}${comparedSpan(months)}`,
    totalPct: (year: number, months?: ComparedMonths) => `Δ% Total ${year}${comparedSpan(months)}`,
    /** The year's total column when a comparison beside it covers fewer months: it sums them all. */
    wholeYear: (year: number) => `Total ${year} (ano inteiro)`,
    sameMonthsNote:
      "Quando as duas janelas não têm os mesmos meses, os totais comparados somam só os meses em comum (indicados no cabeçalho); o Total do ano inteiro soma todos.",
    tagCurrent: "Atual",
    tagPrevious: "Anterior",
    tagDiff: "Diferença",
    tagPercent: "%",
  },
  spreadLaunch: "Distribuir total de uma conta",
} as const;
