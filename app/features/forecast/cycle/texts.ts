import type { ForecastLock } from "~/models/forecast.server";
import { type CycleAction, type CycleState, NOT_SUBMITTED, type ShownCode } from "~/models/forecast-cycle.fields";
import { monthLabel } from "~/shared/months";
import { forecastTexts } from "../texts";

/** Texts of the forecast cycle (submit, review, approve per cost centre × RF); all ours (docs/decisions.md). */

/** A decision's optional comment, as its notice carries it. */
const commentPart = (comment: string) => (comment.trim() ? ` Comentário: ${comment.trim()}` : "");
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

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
  timelineEmpty: "Nenhuma movimentação registrada neste ciclo.",
  timelineEntry: (from: string, to: string) => `${from} → ${to}`,
  moreActions: (n: number) => (n > 0 ? "Ações e histórico do ciclo" : "Histórico do ciclo"),
  lastEvent: (who: string, verb: string, when: string) => `última: ${who} ${verb} em ${when}`,
  actions: {
    submit: "Enviar para revisão",
    approve: "Aprovar",
    return: "Devolver",
    reopen: "Reabrir",
  } satisfies Record<CycleAction, string>,
  actionVerbs: {
    submit: "enviou",
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
  invalidAction: "Ação desconhecida: recarregue a página e tente de novo.",
  done: {
    submit: "Forecast enviado para revisão. A grade fica bloqueada até a decisão do revisor.",
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
    wrongState: (action: string, state: string) => `Não é possível ${action}: a situação atual é “${state}”.`,
  },
  actionInfinitive: {
    submit: "enviar",
    approve: "aprovar",
    return: "devolver",
    reopen: "reabrir",
  } satisfies Record<CycleAction, string>,
  /** The one message every write path gives when the cost centre's forecast is frozen. */
  frozen: (cost_center_concat: string, rf: string, state: string) =>
    `O forecast de ${cost_center_concat} em ${rf} está “${state}”: nenhuma alteração é aceita depois do envio.`,
  /** Why a cost centre of an RF takes no change now, in an upload's refusal (the state's label when frozen). */
  lockReason: {
    closed: (editMonth: string) => `edição encerrada em ${editMonth}`,
    upcoming: (editMonth: string) => `edição abre em ${editMonth}`,
  },
  /** The one message of an upload refused by the forecast's write rule (forecastLocks), naming the pairs. */
  lockedUpload: (items: readonly { costCenter: string; rf: string; reason: string }[]) => {
    const list = items.slice(0, 10).map((i) => `${i.costCenter} (${i.rf}: ${i.reason})`);
    const who = plural(items.length, "centro de custo não aceita", "centros de custo não aceitam");
    const more = items.length > 10 ? "; …" : "";
    const rule =
      "O forecast de um RF só muda no seu mês de edição e enquanto não foi enviado nem aprovado; " +
      "o realizado (actual) pode ser carregado a qualquer momento.";
    return `Arquivo recusado, nada foi aplicado: ${who} alterações de forecast agora: ${list.join("; ")}${more}. ${rule}`;
  },
  // Notices (in-portal and e-mail)
  notice: {
    submittedTitle: (cc: string, rf: string) => `Forecast enviado para revisão: ${cc} · ${rf}`,
    submittedBody: (who: string, cc: string, rf: string, comment: string) =>
      `${who} enviou o forecast de ${cc} em ${rf}.${commentPart(comment)} Revise e aprove ou devolva com um comentário.`,
    resubmittedTitle: (cc: string, rf: string) => `Forecast reenviado para revisão: ${cc} · ${rf}`,
    resubmittedBody: (who: string, cc: string, rf: string, comment: string) =>
      `${who} reenviou o forecast de ${cc} em ${rf} depois da devolução.${commentPart(comment)} Revise e aprove ou devolva com um comentário.`,
    approvedTitle: (cc: string, rf: string) => `Forecast aprovado: ${cc} · ${rf}`,
    approvedBody: (who: string, cc: string, rf: string, comment: string) =>
      `${who} aprovou o forecast de ${cc} em ${rf}.${commentPart(comment)}`,
    returnedTitle: (cc: string, rf: string) => `Forecast devolvido: ${cc} · ${rf}`,
    returnedBody: (who: string, cc: string, rf: string, comment: string) =>
      `${who} devolveu o forecast de ${cc} em ${rf}. Motivo: ${comment}`,
    reopenedTitle: (cc: string, rf: string) => `Forecast reaberto: ${cc} · ${rf}`,
    reopenedBody: (who: string, cc: string, rf: string, comment: string) =>
      `${who} reabriu o forecast aprovado de ${cc} em ${rf}. Motivo: ${comment}`,
    reminderTitle: (rf: string, lastDay: string) => `Lembrete: envie o forecast de ${rf} até ${lastDay}`,
    reminderBody: (rf: string, lastDay: string, list: readonly string[]) =>
      `O mês de edição de ${rf} termina em ${lastDay}. Ainda não ${list.length === 1 ? "foi enviado" : "foram enviados"}: ${list.join("; ")}.`,
  },
};

/** What a state shows as on the board and the review: its label, or "Não enviado" after the edit month. */
export const shownLabel = (code: ShownCode) => (code === NOT_SUBMITTED ? cycleTexts.notSubmitted : STATE_LABELS[code]);

/** Why a lock refuses, in an upload's list. */
export function lockReasonOf(lock: ForecastLock): string {
  return lock.kind === "frozen"
    ? STATE_LABELS[lock.state]
    : cycleTexts.lockReason[lock.kind](monthLabel(lock.editMonth));
}

/** The message a single review's write (grid save, round trip) gives when the model's rule refuses it. */
export function lockMessage(lock: ForecastLock, costCenter: string, rf: string): string {
  return lock.kind === "frozen"
    ? cycleTexts.frozen(costCenter, rf, STATE_LABELS[lock.state])
    : forecastTexts.lockedRefused(rf, monthLabel(lock.editMonth));
}

/** The status board (/ij/forecast_status). */
export const boardTexts = {
  title: "Situação do forecast por centro de custo",
  intro:
    "Cada centro de custo do RF com sua situação no ciclo (Em preparação, Enviado, Devolvido, Aprovado; Não enviado depois do mês de edição), quem prepara, a última mudança e os dias até o fim do mês de edição.",
  rf: "RF",
  stateFilter: "Situação",
  levelFilter: "Nível / área",
  all: "Todos",
  apply: "Filtrar",
  export: "Exportar Excel",
  costCenter: "Centro de custo",
  level: "Nível / área",
  state: "Situação",
  preparers: "Responsáveis",
  lastChange: "Última mudança",
  lastChangeBy: "Por",
  daysLeft: "Dias até o fim da edição",
  ended: "encerrado",
  empty: "Nenhum centro de custo com esses filtros.",
  noScenarios: "Ainda não há períodos de forecast cadastrados.",
  countsCaption: (rf: string, total: number) =>
    `${rf}: ${total.toLocaleString("pt-BR")} ${total === 1 ? "centro de custo" : "centros de custo"} · mês de edição`,
  open: "Abrir",
  preparersLink: "Responsáveis pela preparação",
  // On the review's filter, for whoever prepares cost centres (ours).
  mineTitle: "Meus centros de custo",
  mineIntro: (rf: string) =>
    `Os centros de custo que você prepara, no ${rf}: a situação e os dias até o fim da edição.`,
  mineCaption: "Meus centros de custo",
  mineOption: "você prepara",
};
