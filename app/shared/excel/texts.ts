import { countOf } from "./count-text";

/** Texts of the grids' Excel round trips (ours; docs/decisions.md "Uploads and jobs"). */
export const excelTexts = {
  exportExcel: "Exportar Excel",
  importExcel: "Importar Excel",
  importExcelFile: "Arquivo exportado (XLSX)",
  importExcelHint: "Envie o arquivo exportado desta tela, editado: só as células alteradas são aplicadas.",
  importExcelSend: "Enviar",
  viaExcel: "via Excel",
  excelNotAnExport:
    "O arquivo não é uma exportação do portal: faltam as colunas ocultas _id e _rev. Use Exportar Excel e edite esse arquivo.",
  excelOtherScreen: "O arquivo foi exportado de outra tela. Envie-o pela tela de onde foi exportado.",
  excelOtherScope:
    "O arquivo foi exportado com outro filtro desta tela. Abra a tela com o filtro do arquivo e envie-o de novo.",
  excelTooManyRows: (max: number) => `O arquivo tem mais de ${max.toLocaleString("pt-BR")} linhas.`,
  excelUnreadable: "Não foi possível ler o arquivo como XLSX.",
  excelMissing: "Escolha o arquivo XLSX exportado desta tela.",
  excelNotXlsx: "Envie o arquivo no formato XLSX, como foi exportado.",
  excelTooLarge: (mb: number) => `O arquivo passa de ${mb} MB.`,
  excelSummary: (changed: number, conflicts: number, refused: number) =>
    `${countOf(changed, "alterado", "alterados")}, ${countOf(conflicts, "conflito", "conflitos")}, ${countOf(refused, "recusado", "recusados")}`,
  /** ours: an edited export sent through /captura/manual; the list is on the screen the file came from. */
  excelViaUpload: (summary: string, screen: string) => `Exportação editada aplicada: ${summary}. Lista em ${screen}`,
  /** ours: a large edited export is applied by a job the screen follows */
  excelQueued: "Arquivo recebido. A importação continua em segundo plano; esta tela acompanha o andamento.",
  excelJobRunning: (progress: number) => `Importando o arquivo Excel… ${progress}%`,
  excelJobFailed: "A importação do arquivo Excel não terminou.",
  excelQueueFailed: "Não foi possível receber o arquivo agora. Nada foi alterado; tente novamente.",
  excelJobRefresh: "Atualizar",
  /** ours */
  excelUploadNotAllowed: "Esta exportação é de uma tela em que você não pode salvar alterações. Nada foi alterado.",
  excelReportDownload: "Baixar a lista de conflitos e recusas",
  excelChangedBy: (who: string) => `alterado por ${who}`,
  excelReportColumns: {
    kind: "Tipo",
    line: "Linha",
    row: "Registro",
    column: "Coluna",
    fileValue: "Valor no arquivo",
    currentValue: "Valor atual",
    reason: "Motivo",
    conflict: "Conflito",
    refused: "Recusado",
  },
  excelUnknownRow: "registro não encontrado neste filtro",
  excelNotANumber: "não é um número",
} as const;
