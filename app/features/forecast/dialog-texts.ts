/**
 * Texts of the review grid's dialogs (mass change, a cell's history; ours, spec 001 §5 for the mass change): loaded
 * with the dialogs when one first opens, not with the grid (`forecastTexts` in texts.ts gathers them with the rest).
 */
export const gridDialogTexts = {
  // mass change (spec 001 §5: percent + Aumentar/Diminuir, detail rows with a value, 2 decimals)
  massChangeDescription:
    "O percentual é aplicado às contas com valor nesta coluna; o resultado é arredondado para 2 casas decimais.",
  percentLabel: "Percentual (%)",
  directionLabel: "Operação",
  apply: "Aplicar",
  percentInvalid: "Informe um percentual entre 0 e 1.000.000, como 10 ou 2,5.",
  decreaseTooLarge: "Para diminuir, use no máximo 100%.",
  // the cell history
  historyTitle: (account: string, month: string) => `Histórico: ${account}, ${month}`,
  historyWhen: "Quando",
  historyWho: "Quem",
  historyOld: "Valor anterior",
  historyNew: "Novo valor",
  historyEmpty: "Esta célula ainda não foi alterada no portal.",
  historyComments: "Comentários desta célula",
  historyLoading: "Carregando…",
  historyFailed: "Não foi possível carregar o histórico. Tente novamente.",
  restore: "Restaurar",
  restoreOf: (value: string) => `Restaurar ${value}`,
} as const;
