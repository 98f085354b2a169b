/** Texts of the forecast's versions (/ij/forecast_versoes, "Salvar versão"); all ours (docs/decisions.md). */

export const versionTexts = {
  title: "Versões do forecast",
  intro:
    "Cada versão é uma cópia dos valores de um RF (todos os centros de custo, contas e meses) como estavam quando foi salva, e não muda mais. Abra uma versão no consolidado, compare-a com o RF atual ou exporte-a.",
  rf: "RF",
  all: "Todos",
  filter: "Filtrar",
  name: "Nome",
  kind: "Tipo",
  when: "Quando",
  by: "Por",
  total: "Total do ano",
  totalScoped: "Total do ano (seus centros de custo)",
  actions: "Ações",
  open: "Abrir",
  compare: "Comparar com o RF atual",
  export: "Exportar",
  delete: "Excluir",
  deleteOf: (name: string) => `Excluir a versão “${name}”`,
  reason: "Motivo da exclusão (obrigatório)",
  confirmDelete: "Excluir definitivamente",
  reasonRequired: "Escreva o motivo da exclusão (até 1.000 caracteres).",
  deleted: (name: string) => `Versão “${name}” excluída.`,
  notFound: "Versão não encontrada: ela pode já ter sido excluída.",
  invalid: "Pedido inválido: recarregue a página e tente de novo.",
  empty: "Nenhuma versão salva.",
  companyTitle: "Versões salvas e fechamentos",
  companyHint:
    "Versões salvas por pessoas e o fechamento de cada RF ao fim do seu mês de edição, as mais novas primeiro.",
  approvalsTitle: "Aprovações por centro de custo",
  approvalsHint:
    "Os valores de um centro de custo guardados quando ele foi aprovado, agrupados por centro de custo. Comparar com uma aprovação compara só o centro de custo dela.",
  approvalsEmpty: "Nenhuma aprovação guardada.",
  costCenter: "Centro de custo",
  compareInReview: "Comparar na revisão",
  /** A choice of the review's "vs versão": an approval with its day (a reopened cost centre may have several). */
  approvalChoice: (name: string, day: string) => `${name} (${day})`,
  /** The consolidated view with a version that holds some cost centres only: the view holds those only. */
  restrictedCompare: (centres: readonly string[]) =>
    centres.length === 1
      ? `Comparação restrita a ${centres[0]}, o único centro de custo desta versão.`
      : `Comparação restrita a ${centres.join(", ")}, os centros de custo destas versões.`,
  restrictedView: (centres: readonly string[]) =>
    centres.length === 1
      ? `Valores restritos a ${centres[0]}, o único centro de custo desta versão.`
      : `Valores restritos a ${centres.join(", ")}, os centros de custo destas versões.`,
  restrictedCompany: (centres: readonly string[]) => `Total de ${centres.join(", ")}`,
  consolidatedLink: "Forecast consolidado",
  system: "Portal (automática)",
  kinds: { manual: "Salva", closing: "Fechamento", approval: "Aprovação" },
  closingName: (rf: string) => `${rf} — fechamento`,
  approvalName: (rf: string, cc: string) => `${rf} — aprovado ${cc}`,
  notice: {
    savedTitle: (name: string) => `Versão do forecast salva: ${name}`,
    savedBody: (who: string, name: string, rf: string, total: string) =>
      `${who} salvou a versão “${name}” de ${rf} (total do ano ${total}).`,
    deletedTitle: (name: string) => `Versão do forecast excluída: ${name}`,
    deletedBody: (who: string, name: string, rf: string, reason: string) =>
      `${who} excluiu a versão “${name}” de ${rf}. Motivo: ${reason}`,
  },
};
