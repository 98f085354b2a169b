import type { ForecastLock } from "~/models/forecast.server";
import type { CycleAction } from "~/models/forecast-cycle.fields";
import { monthLabel } from "~/shared/months";
import { forecastTexts } from "../texts";
import { cycleTexts, STATE_LABELS } from "./texts";

/**
 * The forecast cycle's server-side texts (ours): its answers to an action (done, refused and why), its notices, in the
 * portal and by e-mail, and the refusals of the forecast's write rule. Apart from texts.ts, which the review's cycle
 * panel draws in the browser, so the review's script does not carry them.
 */

/** The server's answers to a cycle action. */
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

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

const commentPart = (comment: string) => (comment.trim() ? ` Comentário: ${comment.trim()}` : "");

export const cycleNoticeTexts = {
  submittedTitle: (cc: string, rf: string) => `Forecast enviado para revisão: ${cc} · ${rf}`,
  submittedBody: (who: string, cc: string, rf: string, comment: string) =>
    `${who} enviou o forecast de ${cc} em ${rf}.${commentPart(comment)} Revise e aprove ou devolva com um comentário.`,
  resubmittedTitle: (cc: string, rf: string) => `Forecast reenviado para revisão: ${cc} · ${rf}`,
  resubmittedBody: (who: string, cc: string, rf: string, comment: string) =>
    `${who} reenviou o forecast de ${cc} em ${rf} depois da devolução.${commentPart(comment)} Revise e aprove ou devolva com um comentário.`,
  withdrawnTitle: (cc: string, rf: string) => `Envio retirado: ${cc} · ${rf}`,
  withdrawnBody: (who: string, cc: string, rf: string, comment: string) =>
    `${who} retirou o envio do forecast de ${cc} em ${rf}, que voltou para preparação.${commentPart(comment)} Não é preciso revisá-lo agora.`,
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
};

/** The forecast's write rule refusing a file or a save (forecastLocks). */
export const cycleLockTexts = {
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
};

/** Why a lock refuses, in an upload's list. */
export function lockReasonOf(lock: ForecastLock): string {
  return lock.kind === "frozen"
    ? STATE_LABELS[lock.state]
    : cycleLockTexts.lockReason[lock.kind](monthLabel(lock.editMonth));
}

/** The message a single review's write (grid save, round trip) gives when the model's rule refuses it. */
export function lockMessage(lock: ForecastLock, costCenter: string, rf: string): string {
  return lock.kind === "frozen"
    ? cycleTexts.frozen(costCenter, rf, STATE_LABELS[lock.state])
    : forecastTexts.lockedRefused(rf, monthLabel(lock.editMonth));
}
