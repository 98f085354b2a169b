/** Texts of the upload screen, the job lists and the file repository. */
import { uploadTexts } from "~/platform/import/texts";
import { countOf } from "~/shared/excel/count-text";

/** Texts of the job lists and the file repository that the spec leaves to us (ours; docs/decisions.md). */
export const jobTexts = {
  columnName: "Arquivo",
  columnUser: "Usuário",
  columnDate: "Data",
  columnProgress: "Progresso",
  columnState: "Estado",
  columnMessage: "Mensagem",
  columnAgent: "Agente",
  columnActions: "Ações",
  iconSuccess: "Sucesso",
  iconInProgress: "Em andamento",
  // ours: the icon of a Completed job that refused some rows (its state stays the spec's "Completed").
  iconPartial: "Sucesso com linhas recusadas",
  iconError: "Erro",
  // ours: a job that ended with a non-zero status says so in words, not only by the icon's colour.
  // Refused: the file itself was not accepted, and sending it again changes nothing. Failed: processing broke off
  // (the worker died, the reading stalled, the storage did not answer); "Tentar novamente" may succeed.
  stateRefused: "Recusado",
  // ours: beside the state of a job that ended well but refused some rows (they are in its NOK base or its
  // refused-rows file); the state itself stays the spec's "Completed" (or the upload list's "Finalizado").
  refusedRows: (count: number) => countOf(count, "linha recusada", "linhas recusadas"),
  stateFailed: "Falhou",
  retry: "Tentar novamente",
  retryQueued: "O arquivo voltou para a fila de processamento.",
  retryRefused: {
    "invalid-id": "Pedido inválido: arquivo não identificado.",
    "not-found": "Arquivo não encontrado.",
    forbidden: "Somente quem enviou o arquivo ou um administrador do sistema pode reprocessá-lo.",
    "not-failed": "Este arquivo não está com erro; não há o que reprocessar.",
    "not-retryable":
      "Este arquivo foi recusado pelo seu conteúdo (layout, linhas NOK, permissão ou limite de tamanho) e seria recusado de novo. Corrija o arquivo e envie-o outra vez.",
  },
  emptyJobs: "Nenhum job encontrado.",
  // ours: "Tentar novamente todos" on both job lists
  retryAll: "Tentar novamente todos",
  retryAllQuestion: (count: number) =>
    `Tentar novamente ${countOf(count, "trabalho com falha", "trabalhos com falha")}?`,
  retryAllExplain:
    "Voltam para a fila os trabalhos com falha desta lista que você pode reprocessar (os seus, ou todos para um administrador do sistema). Um trabalho já na fila ou em processamento não é enviado de novo.",
  retryAllConfirm: "Sim, tentar novamente",
  retryAllCancel: "Cancelar",
  retryAllNone:
    "Nenhum trabalho com falha que você possa tentar novamente nesta lista: somente quem enviou o arquivo ou um administrador do sistema pode reprocessá-lo.",
  retryAllChanged: "A quantidade de trabalhos com falha mudou desde a confirmação; confira e confirme de novo.",
  retryAllQueued: (count: number) =>
    `${countOf(count, "trabalho voltou", "trabalhos voltaram")} para a fila de processamento.`,
  retryAllProgress: (finished: number, total: number, failed: number) =>
    `Tentar novamente todos: ${finished} de ${total} concluídos${failed > 0 ? ` (${failed} com falha de novo)` : ""}.`,
  // ours: the refused rows as an XLSX in the template's layout, to fix and send again
  fixRows: "Baixar linhas recusadas para corrigir",
  fixRowsOf: (name: string) => `Baixar linhas recusadas de ${name} para corrigir (XLSX)`,
  fixRowsReason: "Motivo da recusa",
  fixRowsSheet: "Dados",
  fixRowsFileName: (name: string) => `corrigir-${name.replace(/\.[^.]*$/, "") || "arquivo"}.xlsx`,
  nokRows: "Linhas NOK",
  nokRowsOf: (name: string) => `Linhas NOK de ${name}`,
  // ours: the refused rows of an all-or-nothing upload (spec-001 datasets, report packages) as a CSV download
  nokRowsDownloadOf: (name: string) => `Baixar as linhas NOK de ${name} (CSV)`,
  ownJobsNote: "Seus arquivos enviados e o andamento do processamento.",
  allJobsNote: "Todos os arquivos enviados e o andamento do processamento.",
  // /repo/format
  filesTitle: "Arquivos",
  filesCaption: "Arquivos enviados",
  columnOriginalName: "Nome original",
  columnTimestamp: "Data e hora",
  download: "Download",
  downloadOf: (name: string) => `Download de ${name}`,
  emptyFiles: "Nenhum arquivo encontrado.",
} as const;

/** Texts of the upload screen that the spec leaves to us (ours; docs/decisions.md). */
export const uploadScreenTexts = {
  intro: "Envie um ou mais arquivos: eles entram na fila de processamento assim que o envio termina.",
  dropHere: "Arraste os arquivos para cá ou",
  pick: "Selecionar arquivos",
  send: "Enviar",
  allowed: (extensions: readonly string[], maxSize: string) =>
    `Formatos aceitos: ${extensions.join(", ")}. Tamanho máximo: ${maxSize}.`,
  tableCaption: "Arquivos do envio",
  columnName: "Arquivo",
  columnProgress: "Progresso",
  columnEta: "Tempo estimado",
  columnState: "Estado",
  columnActions: "Ações",
  stateActive: "Ativo",
  stateFinished: "Finalizado",
  stateFailed: "Erro",
  // ours: "Finalizado" is the transfer's; the file's job is followed until it ends, and a job that
  // refused or failed the file says so in the state (jobTexts.stateRefused / stateFailed) with the job's message.
  jobWaiting: "Enviado; aguardando o processamento",
  jobRunning: "Enviado; processando",
  retry: "Tentar novamente",
  remove: "Remover",
  retryOf: (name: string) => `Tentar novamente: ${name}`,
  removeOf: (name: string) => `Remover ${name}`,
  progressOf: (name: string) => `Progresso de ${name}`,
  duplicates: (names: string[]) => `Já está na lista: ${names.join(", ")}.`,
  extensionRefused: (name: string) => `Formato de arquivo não aceito: ${name}.`,
  followJobs: "Acompanhe o processamento em",
  empty: uploadTexts.noFileSelected,
} as const;

/** ours: the "Tipo de carga" choice of /captura/manual (docs/decisions.md, "Uploads and jobs"). */
export const uploadTargetTexts = {
  legend: "Tipo de carga",
  options: {
    data: {
      label: "Planilha de dados (reconhecida pelo cabeçalho)",
      hint: "CSV, TXT ou XLSX de um dos modelos: a linha de cabeçalho diz qual. As linhas válidas entram na base OK; as demais, na base NOK, com o número da linha e o erro.",
    },
    explorer: {
      label: "Documento do Explorer",
      hint: "PDF, DOCX, XLSX, TXT ou CSV: o texto é extraído e pode ser buscado no Explorer; o arquivo original fica disponível na página do documento. Um novo envio com o mesmo nome de arquivo substitui o documento.",
    },
    reports: {
      label: "Pacote de relatórios",
      hint: "ZIP com o manifesto relatorios.csv ou relatorios.xlsx (colunas name, origin, dateRef e file) e os arquivos que ele cita. Cada linha vira um relatório em Relatórios; um relatório de mesmo nome, origem e competência é substituído. Uma linha com erro ou um arquivo ausente recusa o pacote inteiro.",
    },
  },
  alwaysNote:
    "Arquivos PDF e DOCX são sempre documentos do Explorer. Um ZIP só é lido como pacote de relatórios com essa opção marcada.",
  ofItem: (label: string) => `Tipo de carga: ${label}`,
} as const;
