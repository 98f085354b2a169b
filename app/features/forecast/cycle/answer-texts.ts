import type { CycleAction } from "~/models/forecast-cycle.fields";

/**
 * The server's answers to a cycle action (ours, docs/decisions.md): done, refused and why. Apart from texts.ts, which
 * the review's cycle panel draws in the browser, so the review's script does not carry them.
 */
export const cycleAnswerTexts = {
  invalidAction: "Ação desconhecida: recarregue a página e tente de novo.",
  done: {
    submit: "Forecast enviado para revisão. A grade fica bloqueada até a decisão do revisor.",
    withdraw: "Envio retirado: o forecast voltou para Em preparação e pode ser alterado.",
    approve: "Forecast aprovado.",
    return: "Forecast devolvido ao responsável, com o comentário.",
    reopen: "Forecast reaberto para preparação.",
  } satisfies Record<CycleAction, string>,
  refused: {
    notPreparer: "Só um responsável pela preparação deste centro de custo pode enviá-lo.",
    notEditor: "Seu perfil não pode alterar o forecast.",
    notInEditMonth: (editMonth: string) => `O envio só é possível no mês de edição (${editMonth}).`,
    notReviewer: "Seu perfil não revisa forecasts.",
    ownCostCenter: "Você é responsável pela preparação deste centro de custo: outra pessoa deve revisá-lo.",
    ownSubmission:
      "Você enviou esta versão ou era responsável pela preparação quando ela foi enviada: outra pessoa deve revisá-la.",
    notAdmin: "Só um administrador pode reabrir um forecast aprovado.",
    withdrawNotPreparer: "Só um responsável pela preparação deste centro de custo pode retirar o envio.",
    withdrawNotInEditMonth: (editMonth: string) => `Retirar o envio só é possível no mês de edição (${editMonth}).`,
    wrongState: (action: string, state: string) => `Não é possível ${action}: a situação atual é “${state}”.`,
  },
  actionInfinitive: {
    submit: "enviar",
    withdraw: "retirar o envio",
    approve: "aprovar",
    return: "devolver",
    reopen: "reabrir",
  } satisfies Record<CycleAction, string>,
};
