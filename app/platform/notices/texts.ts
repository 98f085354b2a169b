/**
 * What the platform tells people through notices: the notice of an upload job's end and the notice e-mail's lines.
 * features/notices/texts.ts includes them in noticeTexts (app/messages.ts gathers those).
 */
export const noticeDeliveryTexts = {
  // Job notices
  jobOutcomeSucceeded: "Concluído sem erros",
  jobOutcomeRefusedRows: "Concluído com linhas recusadas",
  jobOutcomeRefused: "Recusado",
  jobOutcomeFailed: "Falhou",
  jobNoticeTitle: (outcome: string, fileName: string) => `Envio ${outcome.toLowerCase()}: ${fileName}`,
  jobNoticeFile: (fileName: string) => `Arquivo: ${fileName}`,
  jobNoticeUploader: (email: string) => `Enviado por: ${email}`,
  jobNoticeRerunBy: (email: string) => `Reprocessado por: ${email}`,
  retryBatchTitle: (total: number) =>
    `Tentar novamente todos: ${total} ${total === 1 ? "arquivo reprocessado" : "arquivos reprocessados"}`,
  retryBatchBody: (total: number, failed: number) =>
    `Reprocessados: ${total}. Concluídos: ${total - failed}. Falharam novamente: ${failed}.`,
  // The summary of a batch for an uploader or someone on call (not the one who pressed it).
  retryBatchOthersTitle: (by: string, total: number) =>
    `Tentar novamente todos, por ${by}: ${total} ${total === 1 ? "arquivo reprocessado" : "arquivos reprocessados"}`,
  retryBatchFile: (fileName: string, outcome: string, uploader: string | null) =>
    `- ${fileName}: ${outcome}${uploader ? ` (enviado por ${uploader})` : ""}`,
  retryBatchMore: (count: number) => `- e mais ${count} ${count === 1 ? "arquivo" : "arquivos"}`,
  jobNoticeOutcome: (outcome: string) => `Resultado: ${outcome}`,
  jobNoticeCounts: (ok: number, nok: number) => `Linhas aceitas: ${ok}. Linhas recusadas: ${nok}.`,
  jobNoticeReasons: "Primeiros motivos:",
  jobNoticeLineReason: (line: unknown, error: string) => `Linha ${String(line ?? "?")}: ${error}`,
  jobNoticeNokRows: "Baixar as linhas recusadas (CSV)",

  // E-mail
  mailOpenLink: (url: string) => `Abrir no portal: ${url}`,
  mailLink: (label: string, url: string) => `${label}: ${url}`,
  mailFooter: (settingsUrl: string) =>
    `Você recebe este e-mail porque tem avisos por e-mail ligados no portal. Para desligá-los: ${settingsUrl}`,
} as const;
