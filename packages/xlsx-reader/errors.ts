import type { Refusal } from "./limits";

/** The file could not be read as the format its extension claims. */
export class UnreadableFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "UnreadableFileError";
  }
}

/** A file refused for its size once unpacked (a decompression bomb, or more than a spreadsheet can hold): status 3. */
export class FileRefusedError extends UnreadableFileError {
  constructor(message: string) {
    super(message);
    this.name = "FileRefusedError";
  }
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);
const count = (n: number) => n.toLocaleString("pt-BR");

/** Why a file is refused, each naming its cap (pt-BR: the portal shows them as they are). */
export const refusalMessages = {
  package: (bytes: number) => `Arquivo recusado: o arquivo XLSX passa de ${mb(bytes)} MB.`,
  entries: (entries: number) => `Arquivo recusado: o pacote XLSX passa de ${count(entries)} partes (entradas ZIP).`,
  directory: (bytes: number) => `Arquivo recusado: o índice do pacote XLSX (diretório ZIP) passa de ${mb(bytes)} MB.`,
  duplicate: () => "Arquivo recusado: o pacote XLSX tem duas partes (entradas ZIP) com o mesmo nome.",
  overlap: () => "Arquivo recusado: o pacote XLSX tem partes (entradas ZIP) que ocupam os mesmos bytes.",
  inflated: (bytes: number) => `Arquivo recusado: o conteúdo descompactado passa de ${mb(bytes)} MB.`,
  sharedStringBytes: (bytes: number) =>
    `Arquivo recusado: a tabela de textos da planilha (sharedStrings.xml) passa de ${mb(bytes)} MB descompactada.`,
  sharedStrings: (n: number) => `Arquivo recusado: a planilha passa de ${count(n)} textos distintos.`,
  stylesBytes: (bytes: number) =>
    `Arquivo recusado: os estilos da planilha (styles.xml) passam de ${mb(bytes)} MB descompactados.`,
  workbookBytes: (bytes: number) =>
    `Arquivo recusado: a descrição da pasta de trabalho (workbook.xml) passa de ${mb(bytes)} MB descompactada.`,
  relsBytes: (bytes: number) =>
    "Arquivo recusado: as relações da pasta de trabalho (workbook.xml.rels) " +
    `passam de ${mb(bytes)} MB descompactadas.`,
  rows: (n: number) => `Arquivo recusado: a planilha passa de ${count(n)} linhas.`,
  columns: (n: number) => `Arquivo recusado: a planilha passa de ${count(n)} colunas.`,
  cells: (n: number) =>
    `Arquivo recusado: a planilha passa de ${count(n)} células ` +
    "(as vazias antes do último valor de cada linha contam).",
  token: (bytes: number) => `Arquivo recusado: um texto ou marcação do XML da planilha passa de ${mb(bytes)} MB.`,
  part: (name: string, bytes: number) => `Arquivo recusado: ${name} descompactado passa de ${mb(bytes)} MB.`,
  time: (seconds: number) => `Arquivo recusado: a leitura da planilha passou de ${count(seconds)} s.`,
  memory: (megabytes: number) => `Arquivo recusado: a leitura da planilha passou de ${count(megabytes)} MB de memória.`,
};

/** The message of a refusal the reader made. */
export function refusalMessage(refusal: Refusal): string {
  return refusalMessages[refusal.kind](refusal.limit);
}

/** A file that is not a readable XLSX, for `message` (what is wrong with it). */
export function unreadable(message: string): UnreadableFileError {
  return new UnreadableFileError(`XLSX inválido: ${message}`);
}

/** A file past the cap `kind`, whose value is `limit`. */
export function refuse(kind: Refusal["kind"], limit: number): FileRefusedError {
  return new FileRefusedError(refusalMessage({ kind, limit }));
}
