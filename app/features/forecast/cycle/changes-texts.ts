/** Texts of "Alterações a revisar" (ours): the cells changed since what a reviewer last saw or decided. */
export const changesTexts = {
  title: "Alterações a revisar",
  back: "Voltar à revisão",
  /** The baseline: the last return or approval, else the first submission (day, who). */
  since: {
    return: (day: string, who: string) => `Mudanças desde a devolução de ${day} por ${who}`,
    approval: (day: string, who: string) => `Mudanças desde a aprovação de ${day} por ${who}`,
    firstSubmission: (day: string, who: string) => `Mudanças desde a primeira submissão de ${day} por ${who}`,
  },
  /** Under review: up to the last submission. */
  until: (day: string) => `, até o último envio, de ${day}.`,
  windowAll: "Ainda não houve envio: todas as células alteradas no portal neste RF.",
  caption: "Células alteradas",
  account: "Conta",
  month: "Mês",
  old: "Valor anterior",
  new: "Valor novo",
  who: "Última alteração por",
  when: "Em",
  count: "Alterações",
  empty: "Nenhuma célula mudou neste intervalo.",
} as const;
