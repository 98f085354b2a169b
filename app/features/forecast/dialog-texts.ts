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
  // ours: "Distribuir total" (docs/decisions.md "Forecast review")
  spreadTitle: "Distribuir total",
  spreadApplied: (n: number) =>
    `Total distribuído em ${n === 1 ? "1 célula" : `${n.toLocaleString("pt-BR")} células`}. Salve para gravar.`,
  spreadAccount: "Conta",
  spreadIntro: (months: number) =>
    `Informe o total dos ${months} meses abertos e como distribuí-lo. Cada mês é arredondado aos centavos; a sobra do arredondamento vai para o último mês, e o total fica exato. Os meses fechados não mudam.`,
  spreadTotal: "Total dos meses abertos (R$)",
  spreadMode: "Como distribuir",
  spreadModes: {
    igual: "Igualmente",
    rf_anterior: "Como os meses do RF anterior",
    realizado_ano_anterior: "Como o realizado do ano anterior",
    perfil: "Como o perfil de sazonalidade",
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
  spreadFellBackOf: (mode: string, accounts: readonly string[]) =>
    `Sem base para distribuir ${mode.toLowerCase()} em ${accounts.join(", ")}: distribuído igualmente nessas contas.`,
  spreadSharedEvenly: "Nenhuma conta tem peso para repartir o total: repartido igualmente entre as contas.",
  spreadSaved: (months: number, accounts = 1) =>
    accounts === 1
      ? `Total distribuído em ${months} meses.`
      : `Total distribuído em ${months} meses de ${accounts} contas.`,
  spreadAccounts: "Contas (uma ou mais)",
  spreadScope: "Com mais de uma conta",
  spreadScopes: {
    cada: "Cada conta recebe o total",
    repartido: "Um total repartido entre as contas, pelo peso de cada uma",
  } as Record<string, string>,
  spreadScopeHint:
    "O peso de uma conta é a soma da sua base (RF anterior ou realizado do ano anterior) ou, nos outros modos, dos seus meses abertos hoje.",
  spreadHistory: "distribuído",
  spreadClosed: "Não há meses abertos para edição nesta revisão agora.",
  spreadReadOnly: "Só quem edita a revisão distribui totais.",
  spreadUnknownAccount: "Conta não encontrada nesta revisão.",
  spreadTotalInvalid: "Informe o total como número (ex.: 1.234,50).",
  spreadWeightsInvalid: (months: number) =>
    `Informe ${months} pesos, números maiores ou iguais a zero, separados por ;.`,
  spreadChanged: "Os valores mudaram desde a prévia: confira a nova prévia antes de salvar.",
} as const;
