import { MENTIONS_MAX } from "./mentions";

/** The texts of a cell's comments (the thread's page, its answers and the mention's notice). */
export const commentTexts = {
  title: "Comentários",
  titleOf: (cell: string) => `Comentários · ${cell}`,
  listTitle: (place: string) => `Comentários · ${place}`,
  empty: "Nenhum comentário nesta célula ainda.",
  noThreads: "Nenhuma célula com comentários.",
  newComment: "Novo comentário",
  hint: "Escreva @ e o nome de quem pode ver esta tela (ou escolha na lista): a pessoa recebe um aviso com o link para a célula. Quem tem o mesmo nome de outra pessoa, ou nenhum nome no cadastro, é mencionado com o código mostrado na lista (@Ana Souza#3f2a1c, @#3f2a1c).",
  counter: (used: number, max: number) => `${used} de ${max} caracteres`,
  submit: "Comentar",
  resolve: "Resolver conversa",
  reopen: "Reabrir conversa",
  resolvedBy: (who: string, when: string) => `Conversa resolvida por ${who} em ${when}.`,
  folded: (count: number) => `${count === 1 ? "1 comentário" : `${count} comentários`} (conversa resolvida)`,
  olderHidden: (shown: number) => `Mostrando os ${shown} comentários mais recentes.`,
  backToGrid: "Voltar à grade",
  openInGrid: "Voltar à grade, nesta célula",
  /** The grid's side panel. */
  panel: {
    loading: "Carregando comentários…",
    fullPage: "Abrir em página própria",
    close: "Fechar comentários",
  },
  mentionable: "Quem pode ser mencionado",
  mentionableMore: (more: number) =>
    `… e mais ${more}, não listadas aqui: para mencioná-las, escreva @ e o nome completo da pessoa.`,
  unnamed: "Sem nome no cadastro",
  suggestions: "Sugestões de menção",
  cells: "Células com comentários",
  cellColumn: "Célula",
  countColumn: "Comentários",
  stateColumn: "Situação",
  open: "Aberta",
  resolved: "Resolvida",
  openCell: "Abrir célula",
  pickAccount: "Conta",
  pickMonth: "Mês",
  marker: "Esta célula tem comentários (Shift+F2 abre).",
  done: {
    added: "Comentário publicado.",
    addedNotified: (count: number) =>
      `Comentário publicado. ${count === 1 ? "1 pessoa foi avisada" : `${count} pessoas foram avisadas`}.`,
    resolved: "Conversa resolvida.",
    reopened: "Conversa reaberta.",
  },
  errors: {
    empty: "Escreva o comentário.",
    tooLong: (max: number) => `O comentário pode ter no máximo ${max} caracteres.`,
    unknown: (token: string) => `@${token} não pode ser mencionado: ninguém com esse nome pode ver esta célula.`,
    ambiguous: (token: string) =>
      `@${token} é o nome de mais de uma pessoa: escolha a pessoa na lista, que mostra o código de cada uma (por exemplo @${token}#3f2a1c).`,
    tooMany: `Mencione no máximo ${MENTIONS_MAX} pessoas por comentário.`,
    noThread: "Esta célula não tem comentários para resolver.",
    unknownCell: "Célula não encontrada nesta tela.",
  },
  notice: {
    title: (who: string) => `${who} mencionou você em um comentário`,
    body: (place: string, cell: string, text: string) => `${place} · ${cell}: “${text}”`,
    thread: "Ver comentários",
  },
} as const;
