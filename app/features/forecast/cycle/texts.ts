import { type CycleAction, type CycleState, NOT_SUBMITTED, type ShownCode } from "~/models/forecast-cycle.fields";

/** Texts of the forecast cycle (submit, review, approve per cost centre × RF); all ours (docs/decisions.md). */

export const STATE_LABELS: Readonly<Record<CycleState, string>> = {
  preparing: "Em preparação",
  submitted: "Enviado",
  returned: "Devolvido",
  approved: "Aprovado",
};

/** Texts keyed by the cycle's actions are checked against them (a missing one is a type error). */
export const cycleTexts = {
  notSubmitted: "Não enviado",
  stateTitle: "Situação do ciclo",
  statePrefix: "Situação:",
  preparersLabel: "Responsáveis pela preparação",
  noPreparers: "Nenhum responsável atribuído a este centro de custo.",
  timelineTitle: "Histórico do ciclo",
  changesLink: "Alterações a revisar",
  timelineEmpty: "Nenhuma movimentação registrada neste ciclo.",
  timelineEntry: (from: string, to: string) => `${from} → ${to}`,
  moreActions: (n: number) => (n > 0 ? "Ações e histórico do ciclo" : "Histórico do ciclo"),
  lastEvent: (who: string, verb: string, when: string) => `última: ${who} ${verb} em ${when}`,
  actions: {
    submit: "Enviar para revisão",
    withdraw: "Retirar envio",
    approve: "Aprovar",
    return: "Devolver",
    reopen: "Reabrir",
  } satisfies Record<CycleAction, string>,
  actionVerbs: {
    submit: "enviou",
    withdraw: "retirou o envio",
    approve: "aprovou",
    return: "devolveu",
    reopen: "reabriu",
  } satisfies Record<CycleAction, string>,
  commentLabel: "Comentário",
  commentOptional: "Comentário (opcional)",
  returnCommentLabel: "Motivo da devolução (obrigatório)",
  reopenReasonLabel: "Motivo da reabertura (obrigatório)",
  commentRequired: "Escreva o motivo: ele é obrigatório para devolver ou reabrir.",
  commentTooLong: (max: number) => `O comentário pode ter no máximo ${max} caracteres.`,
  // The submission's confirmation (ours), with the cells changed since the last submission.
  submitQuestion: (cells: number) =>
    `Enviar para revisão? ${cells === 1 ? "1 célula mudou" : `${cells.toLocaleString("pt-BR")} células mudaram`} desde o último envio. Depois de enviado, o forecast só muda se você retirar o envio ou se um revisor devolver.`,
  submitConfirm: "Confirmar envio",
  submitCancel: "Cancelar",
  /** The one message every write path gives when the cost centre's forecast is frozen. */
  frozen: (cost_center_concat: string, rf: string, state: string) =>
    `O forecast de ${cost_center_concat} em ${rf} está “${state}”: nenhuma alteração é aceita depois do envio.`,
};

/** What a state shows as on the board and the review: its label, or "Não enviado" after the edit month. */
export const shownLabel = (code: ShownCode) => (code === NOT_SUBMITTED ? cycleTexts.notSubmitted : STATE_LABELS[code]);
