/** Texts of the upload screen that the spec leaves to us (docs/decisions.md). */
export const uploadScreenTexts = {
  intro: "Envie um ou mais arquivos: eles entram na fila de processamento assim que o envio termina.",
  dropHere: "Arraste os arquivos para cá ou",
  pick: "Selecionar arquivos",
  send: "Enviar",
  allowed: (extensions: readonly string[], maxSize: string) => `Formatos aceitos: ${extensions.join(", ")}. Tamanho máximo: ${maxSize}.`,
  tableCaption: "Arquivos do envio",
  columnName: "Arquivo",
  columnProgress: "Progresso",
  columnEta: "Tempo estimado",
  columnState: "Estado",
  columnActions: "Ações",
  stateActive: "Ativo",
  stateFinished: "Finalizado",
  stateFailed: "Erro",
  retry: "Tentar novamente",
  remove: "Remover",
  retryOf: (name: string) => `Tentar novamente: ${name}`,
  removeOf: (name: string) => `Remover ${name}`,
  progressOf: (name: string) => `Progresso de ${name}`,
  uploaded: (name: string) => `Upload concluído: ${name}. O arquivo foi para a fila de processamento.`,
  duplicates: (names: string[]) => `Já está na lista: ${names.join(", ")}.`,
  extensionRefused: (name: string) => `Formato de arquivo não aceito: ${name}.`,
  followJobs: "Acompanhe o processamento em",
  processingLink: "Processamento",
  empty: "Nenhum arquivo selecionado.",
} as const;

export function formatSize(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(bytes % 1024 ** 3 === 0 ? 0 : 1)} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(bytes % 1024 ** 2 === 0 ? 0 : 1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}
