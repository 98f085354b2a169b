/**
 * User-visible texts of the Cost-centre forecast review (spec 001): the spec's verbatim, the rest marked "ours"
 * (docs/decisions.md). Re-exported by app/messages.ts; defined only here. The spec's shared texts are defined in
 * app/shared/ui/texts.ts (which messages.ts names too) and reused from there: "Salvando Dados..." (savingData), "Salvo
 * com sucesso!" (saved), "Fixar coluna" / "Desfixar coluna" (pinColumn / unpinColumn), "Aumentar" / "Diminuir"
 * (increase / decrease), "Close", "Cancelar".
 */

import { gridDialogTexts } from "./dialog-texts";
import { gridEditTexts } from "./edit-texts";
import { gridTexts, plural } from "./grid-texts";
import { reviewPageTexts } from "./review-page-texts";

export const forecastTexts = {
  ...gridTexts,
  ...gridEditTexts,
  ...reviewPageTexts,
  ...gridDialogTexts,
  // The filter (spec 001 §2: "select Period and Cost Center (searchable). Generate Review … The breadcrumb Filtering")
  period: "Period",
  costCenter: "Cost Center",
  generateReview: "Generate Review",
  filterIntro: "Escolha o período (release point) e o centro de custo para abrir a grade mensal de forecast.",
  periodPlaceholder: "Selecione o período",
  periodOpenSuffix: "aberto para edição",
  costCenterPlaceholder: "Digite o código ou o nome",
  costCenterHint: "Digite parte do código ou do nome e escolha na lista.",
  filterIncomplete: "Escolha um período e um centro de custo da lista.",
  unknownPeriod: "Período desconhecido: escolha um da lista.",
  unknownCostCenter: (text: string) => `Nenhum centro de custo corresponde a “${text}”: escolha um da lista.`,
  ambiguousCostCenter: (text: string, n: number) =>
    `${n} centros de custo correspondem a “${text}”: escolha um da lista.`,
  noScenarios: "Ainda não há períodos de forecast cadastrados.",
  calendarLink: "Calendário de revisões",
  // ours: without JavaScript, writes the choices in the address (the view and the bookmark keep them)
  applyChoices: "Aplicar escolhas",

  // ours: the scenarios overview (/ij/report_preview_schneider)
  calendarTitle: "Calendário de revisões de forecast",
  calendarIntro:
    "Cada período (release point) é revisado no mês seguinte à sua data âncora; fora desse mês a grade fica bloqueada. As colunas até o mês da âncora mostram o realizado; as seguintes, o forecast.",
  columnPeriod: "Período",
  columnAnchor: "Âncora",
  columnEditMonth: "Mês de edição",
  columnWindow: "Janela",
  columnState: "Situação",
  columnCostCenters: "Centros de custo",
  stateOpen: "Aberto para edição",
  stateLocked: "Bloqueado",
  review: "Revisar",
  reviewOf: (rf: string) => `Revisar ${rf}`,
  windowRange: (from: string, to: string) => `${from} a ${to}`,

  invalidScenario: "Período inválido: escolha um período na tela de filtro.",
  unknownReview: "Não há dados para este período e centro de custo.",
  cellInput: (account: string, month: string) => `${account}, ${month}`,

  nothingSaved: "Nada foi salvo.",
  nothingToSave: "Não há alterações para salvar.",
  lockedRefused: (rf: string, editMonth: string) =>
    `O período ${rf} está bloqueado: só pode ser alterado em ${editMonth}. Nada foi salvo.`,
  columnRefused: (month: string) =>
    `A coluna ${month} não pode ser alterada (realizado ou fora da janela). Nada foi salvo.`,
  rowRefused: (row: string) =>
    `“${row}” não é uma conta editável deste centro de custo (linhas de grupo e de total não são editáveis). Nada foi salvo.`,
  cellMissing: (account: string, month: string) => `Não há lançamento de ${account} em ${month}. Nada foi salvo.`,
  tooManyDecimals: (value: string) => `O valor ${value} tem mais de 2 casas decimais. Nada foi salvo.`,
  valueOutOfRange: "Valor fora do limite de 15 dígitos. Nada foi salvo.",
  notANumber: (text: string) => `“${text}” não é um número. Nada foi salvo.`,
  duplicateCell: (account: string, month: string) =>
    `A célula ${account}, ${month} foi enviada duas vezes. Nada foi salvo.`,
  tooManyCells: (max: number) => `Envie no máximo ${max.toLocaleString("pt-BR")} células por vez. Nada foi salvo.`,
  invalidSave: "Não foi possível ler as alterações enviadas. Recarregue a página e tente novamente. Nada foi salvo.",
  conflicts: (n: number) =>
    `${plural(n, "célula foi alterada", "células foram alteradas")} por outra pessoa desde que você abriu a grade. Nada foi salvo: revise as células marcadas.`,
  conflictsAfterSave: (saved: number, n: number) =>
    `${plural(saved, "célula salva", "células salvas")}; ${plural(n, "célula foi alterada", "células foram alteradas")} por outra pessoa no mesmo instante e não ${n === 1 ? "foi salva" : "foram salvas"}: revise as células marcadas.`,
  conflictCell: (who: string, when: string, value: string) => `Alterada por ${who} em ${when}; valor atual ${value}.`,
  historyPickCell: "Clique numa conta e num mês da grade para ver o histórico da célula.",
  // ours: the columns of the review's Excel export
  excelGroup: "Grupo",
  excelDescription: "Descrição",
} as const;
