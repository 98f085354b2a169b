/** Texts of "Alterações desde o último envio" (ours). */
export const changesTexts = {
  title: "Alterações desde o último envio",
  back: "Voltar à revisão",
  windowBetween: (from: string, to: string) => `Células alteradas entre o envio de ${from} e o de ${to}.`,
  windowSince: (from: string) => `Células alteradas desde o envio de ${from}.`,
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
