import { countOf } from "~/shared/excel/count-text";
import { formatCount } from "~/shared/excel/values";

/**
 * User-visible texts of the HR auxiliary data (spec 001): the spec's verbatim, the rest marked "ours"
 * (docs/decisions.md). Re-exported by app/messages.ts; defined only here.
 */
export const hrTexts = {
  // spec 001 §2 (verbatim)
  title: "Auxiliar Padrão",
  filtering: "Filtering",
  generateReview: "Generate Review",
  filial: "Filial",

  // ours: the branch picker (/ij/rh)
  pickerIntro: "Escolha a filial e o período (meses de apuração) para revisar os dados auxiliares.",
  branchSearchLabel: "Buscar filial",
  branchSearchPlaceholder: "Digite parte do nome da filial",
  branchFilter: "Filtrar",
  branchListLabel: "Filiais",
  noBranches: "Nenhuma filial disponível.",
  noBranchesScoped: "Nenhuma das filiais vinculadas ao seu usuário tem dados auxiliares.",
  noBranchMatches: (q: string) => `Nenhuma filial encontrada para "${q}".`,
  branchCount: (shown: number, total: number) =>
    shown === total
      ? countOf(total, "filial", "filiais")
      : `${formatCount(shown)} de ${countOf(total, "filial", "filiais")}`,
  chooseBranch: "Escolha uma filial.",
  scopedNote: (n: number) =>
    n === 1
      ? "Você vê somente a filial vinculada ao seu usuário."
      : "Você vê somente as filiais vinculadas ao seu usuário.",

  // ours: the month range
  monthRange: "Período (mês de apuração)",
  monthFrom: "De",
  monthTo: "Até",
  applyMonths: "Aplicar período",
  monthInvalid: "Mês inválido. Use o formato mês/ano (ex.: 03/2026).",
  monthReversed: "O mês inicial deve ser anterior ou igual ao mês final.",
  monthOutOfBounds: (min: string, max: string) => `Escolha meses entre ${min} e ${max}.`,
  monthSpanTooLong: (months: number) => `Escolha um período de no máximo ${months} meses.`,

  // ours: the grid (/ij/rh_edit/{filial})
  gridCaption: (filial: string) => `Dados auxiliares da filial ${filial}`,
  columns: {
    filial_nome: "Filial",
    mes_apur: "Mês apuração",
    nome: "Nome",
    cpf: "CPF",
    vendas_adicionais: "Vendas adicionais",
    dias_media: "Dias média",
    result_qtde_servico: "Resultado qtde. serviço",
    result_desafio_mensal: "Resultado desafio mensal",
    vendas_servicos: "Vendas serviços",
    comentario: "Comentário",
    conversa: "Conversa",
  },
  rowCount: (n: number) => (n === 1 ? "1 registro" : `${n.toLocaleString("pt-BR")} registros`),
  rowLimitReached: (limit: number) =>
    `Mostrando os primeiros ${limit.toLocaleString("pt-BR")} registros. Escolha um período menor para ver os demais.`,
  loading: "Carregando…",
  readOnly: "Somente leitura: o seu perfil pode consultar estes dados, mas não alterá-los.",
  branchNotFound: (filial: string) => `Filial não encontrada: ${filial}.`,
  backToPicker: "Escolher outra filial",
  loadFailed: "Não foi possível carregar os dados auxiliares. Tente novamente em instantes.",
  retry: "Tentar novamente",
  fieldOf: (label: string, nome: string, mes: string) => `${label} de ${nome} (${mes})`,

  // ours: the people of the branch beside the grid ("get users of store", spec 001 §7)
  storeUsersTitle: "Pessoas da filial",
  storeUsersCaption: (filial: string) => `Pessoas da filial ${filial} no período`,
  storeUsersColumns: { matricula: "Matrícula", nome: "Nome", cargo: "Cargo" },
  noStoreUsers: "Nenhuma pessoa no período.",

  // ours: saving the figures
  save: "Salvar",
  discard: "Desfazer alterações",
  changedCount: (n: number) => (n === 1 ? "1 valor alterado" : `${n} valores alterados`),
  noChanges: "Nenhum valor foi alterado.",
  confirmTitle: "Confirmar alterações",
  confirmPrompt: (n: number) => (n === 1 ? "Salvar 1 valor alterado?" : `Salvar ${n} valores alterados?`),
  confirmChange: (nome: string, mes: string, label: string, from: string, to: string) =>
    `${nome} (${mes}) — ${label}: ${from} → ${to}`,
  invalidNumber: "Número inválido. Use o formato brasileiro, por exemplo 1.234,56.",
  negativeNumber: "O valor não pode ser negativo.",
  tooManyDecimals: (decimals: number) =>
    decimals === 0
      ? "Informe um número inteiro."
      : `Use no máximo ${decimals} ${decimals === 1 ? "casa decimal" : "casas decimais"}.`,
  numberTooLarge: (max: string) => `O valor máximo é ${max}.`,
  fixErrors: "Corrija os valores destacados antes de salvar.",
  unknownRecords: "Alguns registros enviados não pertencem a esta filial. Nada foi salvo.",
  conflict: (n: number) =>
    n === 1
      ? "1 registro foi alterado por outra pessoa enquanto você editava e não foi salvo; os valores atuais foram recarregados."
      : `${n} registros foram alterados por outra pessoa enquanto você editava e não foram salvos; os valores atuais foram recarregados.`,
  saveFailed: "Não foi possível salvar. Nada foi alterado; tente novamente.",
  tooManyFields: "Alterações demais de uma vez. Salve em partes menores.",

  // ours: the comment dialog
  threadOf: (nome: string, mes: string, n: number) =>
    n === 0 ? `Comentar o registro de ${nome} (${mes})` : `Comentários do registro de ${nome} (${mes}): ${n}`,
  threadsOfBranch: "Comentários dos registros desta filial",
  editComment: "Editar comentário",
  editCommentOf: (nome: string, mes: string) => `Editar comentário de ${nome} (${mes})`,
  commentTitle: "Comentário",
  commentFor: (nome: string, mes: string) => `${nome} — ${mes}`,
  commentLabel: "Comentário",
  commentCounter: (used: number, max: number) => `${used}/${max}`,
  commentTooLong: (max: number) => `O comentário pode ter no máximo ${max} caracteres.`,
  cancel: "Cancel",
  saveComment: "Save",
  recordNotFound: "Registro não encontrado nesta filial. Nada foi alterado.",
} as const;
