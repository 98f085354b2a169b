/**
 * Texts of the sign rule of the review's "Distribuir total" (ours; docs/decisions.md "Forecast review", spread-sign.ts):
 * its page, the grid's dialog and the server's answers import them from here, so the review grid's script (which
 * carries `forecastTexts`) does not.
 */
export const spreadSignTexts = {
  totalHint:
    "Use o sinal da conta: positivo em custos e despesas; negativo só em contas que já somam negativo (deduções, créditos). Um total de sinal contrário ao da conta é um estorno: precisa da confirmação abaixo e não pode passar do que a conta soma nos meses fechados da revisão.",
  confirm: "Confirmo o estorno (total de sinal contrário ao da conta)",
  unconfirmed: (accounts: readonly string[]) =>
    `O total tem sinal contrário ao de ${accounts.join(", ")}: é um estorno. Marque “Confirmo o estorno” para distribuí-lo.`,
  tooLarge: (account: string, limit: string) =>
    `O estorno em ${account} passa do que a conta soma nos meses fechados da revisão (${limit}) e trocaria o sinal da conta: reduza o total.`,
  confirmedNote: (accounts: readonly string[]) => `Estorno confirmado em ${accounts.join(", ")}.`,
} as const;

/** "a", "a e b", "a, b e c". */
const listed = (items: readonly string[]) =>
  items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]}`;

/**
 * Texts of the spread's bases (ours; docs/decisions.md "Spreads that follow their base"): the months a base does not
 * cover, and the stored seasonality profiles as a base.
 */
export const spreadBaseTexts = {
  /** The months without a base, spread evenly (of `accounts` when the spread's accounts differ in them). */
  unbased: (months: readonly string[], accounts?: readonly string[]) =>
    `Sem base em ${listed(months)}${accounts ? ` (${accounts.join(", ")})` : ""}: distribuído igualmente ${
      months.length === 1 ? "nesse mês" : "nesses meses"
    }; os demais seguem a base.`,
  profileLabel: "Perfil de sazonalidade",
  profileNone: "Nenhum perfil cadastrado",
  profileHint: "Usado em “Como o perfil de sazonalidade”: cada mês aberto recebe o peso do seu mês no perfil.",
  profileMissing: "Escolha um perfil de sazonalidade da lista (ele pode ter sido excluído).",
} as const;
