import type { CycleAction } from "~/models/forecast-cycle.fields";

type Decision = Extract<CycleAction, "approve" | "return">;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

/** The status board's decision on several submitted cost centres at once (ours: the spec has one at a time). */
export const bulkTexts = {
  legend: "Decidir os centros de custo marcados",
  intro:
    "Marque os centros de custo enviados e aprove ou devolva todos de uma vez. Cada um é decidido por si: o envio que você está vendo, a regra de quem pode revisar, um aviso ao responsável e um registro na auditoria.",
  select: (cc: string) => `Marcar ${cc}`,
  selectHeader: "Marcar",
  comment: "Comentário (obrigatório para devolver)",
  approve: "Aprovar marcados",
  return: "Devolver marcados",
  commentRequired: "Para devolver, escreva um comentário: ele vai para cada responsável.",
  noneSelected: "Marque ao menos um centro de custo enviado.",
  tooMany: (max: number) => `Marque no máximo ${max.toLocaleString("pt-BR")} centros de custo por vez.`,
  invalid: "Não foi possível ler a seleção: recarregue a página e marque de novo.",
  sentAgain: "Foi enviado de novo depois que você abriu o quadro: abra o centro de custo e revise o envio atual.",
  unknown: "Centro de custo não encontrado neste RF.",
  summary: (action: Decision, decided: number, refused: number) =>
    `${plural(decided, "centro de custo", "centros de custo")} ${action === "approve" ? (decided === 1 ? "aprovado" : "aprovados") : decided === 1 ? "devolvido" : "devolvidos"}${refused > 0 ? `; ${plural(refused, "recusado", "recusados")}` : ""}.`,
  refusedCaption: "Não decididos",
} as const;
