/** The review's calendar as its page states it (review.server.ts factsOf). */
export type ReviewFacts = { anchor: string; editMonth: string; from: string; to: string; lastEditDay: string };

/**
 * The review page's texts that its loader words (spec 001; "ours"): the facts line and the notice of whether the grid
 * may be edited. Apart from gridTexts (grid-texts.ts) so that the page's script does not carry them; `forecastTexts` in
 * texts.ts gathers them too.
 */
export const reviewPageTexts = {
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
  noData: "Não há lançamentos de forecast para este centro de custo neste período.",
} as const;

/** The notice over the grid of a cost centre not submitted or approved: open to this user, readable, or locked. */
export function reviewStateNotice(review: {
  open: boolean;
  canWrite: boolean;
  facts: ReviewFacts;
  editWindow: string;
}): { tone: "info" | "warning"; text: string } {
  const t = reviewPageTexts;
  if (review.open && review.canWrite)
    return { tone: "info", text: t.openNotice(review.facts.editMonth, review.facts.lastEditDay) };
  if (review.open) return { tone: "info", text: t.readOnlyNotice };
  return {
    tone: "warning",
    text: t.lockedNotice(review.facts.editMonth, review.editWindow === "upcoming" ? "upcoming" : "closed"),
  };
}
