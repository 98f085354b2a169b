import { countOf } from "~/shared/excel/count-text";

/**
 * The import pipeline's texts: the upload's refusals, the write rule of uploads, the upload templates, Explorer
 * documents, report packages and the files that leave the pipeline. app/messages.ts gathers them for routes and
 * features; the pipeline's modules import them from here.
 */

/** Why an upload or its registration was refused: the spec's COD.2 / COD.3 alerts, then ours with the reason. */
export const uploadTexts = {
  uploadFailed: "Ocorreu um erro ao fazer o upload. COD.2",
  uploadRegistrationFailed: "Ocorreu um erro ao fazer upload do arquivo. COD.3",
  /** The spec's alert for a failure code: COD.2 the transfer, COD.3 the registration (docs/decisions.md). */
  uploadFailure: (code: "COD.2" | "COD.3") =>
    code === "COD.3" ? uploadTexts.uploadRegistrationFailed : uploadTexts.uploadFailed,
  uploadTooManyFiles: (max: number) => `Envie no máximo ${max} arquivos de uma vez.`,
  // ours: a file sent through the API as one template's whose header row is another's
  otherDataset: (found: string, named: string) =>
    `O arquivo tem as colunas de ${found}, mas foi enviado como ${named}. Nada foi carregado.`,
  namedDatasetHeader: (named: string) =>
    `O arquivo foi enviado como ${named}, mas não tem as colunas dessa base. Nada foi carregado.`,
  uploadPostTooLarge: (max: number, limit: string) =>
    `Envio maior que o permitido (até ${max} arquivos de ${limit} cada).`,
  uploadObjectMissing: "O arquivo não chegou ao armazenamento.",
  uploadAlreadyRegistered: "Este arquivo já foi registrado.",
  uploadRegisterFailedFor: (name: string) => `Falha ao registrar ${name}.`,
  uploadTransferBroken: "Falha na transferência do arquivo.",
  noFileSelected: "Nenhum arquivo selecionado.",
  invalidTarget: (value: string) =>
    `Tipo de carga inválido: "${value.length > 40 ? `${value.slice(0, 39)}…` : value}". Escolha Planilha de dados, Documento do Explorer ou Pacote de relatórios.`,
};

/**
 * ours: a job whose every claim died before it ended (worker-loop.server.ts MAX_ATTEMPTS; docs/decisions.md): what
 * of the file the data holds, and what Tentar novamente does.
 */
export const jobGiveUpTexts = {
  nothingKept: (claims: number) =>
    `Processamento interrompido: as ${claims} tentativas de processar este arquivo caíram antes de terminar (o arquivo pode ser a causa). Nada dele ficou gravado; verifique o arquivo e use Tentar novamente.`,
  partlyApplied: (claims: number) =>
    `Processamento interrompido: as ${claims} tentativas de processar este arquivo caíram antes de terminar, depois de começar a aplicá-lo: parte dele pode estar aplicada. Use Tentar novamente para aplicar o arquivo inteiro.`,
} as const;

/** The write rule of uploads (ours: docs/access.md "Upload targets"). */
export const uploadRightsTexts = {
  notAllowed: (dataset: string) => `Você não tem permissão para carregar ${dataset}`,
  outsideBranchScope: "filial fora das lojas liberadas para você (/ij/rh)",
  /** A forecast row of a cost centre its uploader may not write (forecast-readers.server.ts forecastWriteScopeOf). */
  notYourCostCentre: (costCentre: string) =>
    `Centro de custo ${costCentre} não é seu: só quem o prepara, um revisor ou o SYSTEM ADMIN grava nele.`,
  reportsLabel: "pacotes de relatórios",
  explorerLabel: "documentos do Explorer",
};

export const documentImportTexts = {
  reading: "Extraindo o texto do documento",
  readingPages: (page: number, pages: number) => `Extraindo o texto: página ${page} de ${pages}`,
  indexed: (title: string, words: number) =>
    `Documento indexado no Explorer: "${title}" (${countOf(words, "palavra", "palavras")})`,
  replaced: (title: string, words: number) =>
    `Documento substituído no Explorer: "${title}" (${countOf(words, "palavra", "palavras")})`,
  cut: (chars: number) => ` O texto foi cortado em ${chars.toLocaleString("pt-BR")} caracteres.`,
  unsupported: (ext: string) =>
    `Formato não suportado para documento do Explorer (.${ext || "sem extensão"}); envie PDF, DOCX, XLSX, TXT ou CSV.`,
  noText: "Nenhum texto encontrado no documento (um PDF digitalizado como imagem não tem texto); nada foi indexado.",
  tooLarge: (mb: number) => `Documento grande demais para extrair o texto (máximo ${mb} MB); nada foi indexado.`,
  // ours: a document past a limit of its reading thread (decompression bombs; docs/decisions.md)
  refusedInflated: (mb: number) => `Documento recusado: o conteúdo descompactado passa de ${mb} MB; nada foi indexado.`,
  refusedMemory: (mb: number) =>
    `Documento recusado: extrair o texto exige mais de ${mb} MB de memória; nada foi indexado.`,
  refusedTime: (seconds: number) =>
    `Documento recusado: extrair o texto levou mais de ${seconds} segundos; nada foi indexado.`,
  unreadable: (detail: string) => `Não foi possível ler o documento: ${detail}`.slice(0, 300),
  missing: "Não foi possível ler o documento: o arquivo armazenado não foi encontrado.",
  // ours: HR data is not indexed for the explorer's readers (docs/decisions.md)
  hrRefused: "Documento com dados de RH (CPF) não é indexado no Explorer.",
  hrUnreadable:
    "Documento não indexado no Explorer: não foi possível ler as linhas da planilha para verificar se há dados de RH (CPF).",
  hrUnverified:
    "Não foi possível verificar agora se o documento tem dados de RH (CPF); nada foi indexado. Tente novamente.",
  source: "Captura manual",
  categories: { pdf: "PDF", docx: "Word", xlsx: "Excel", txt: "Texto", csv: "CSV" } as Record<string, string>,
} as const;

export const reportBundleTexts = {
  reading: "Lendo o pacote de relatórios",
  storing: (done: number, total: number) => `Gravando os arquivos: ${done} de ${total}`,
  done: (inserted: number, replaced: number) =>
    `${countOf(inserted, "relatório incluído", "relatórios incluídos")}, ${countOf(replaced, "substituído", "substituídos")}`,
  notAZip: "O pacote de relatórios deve ser um arquivo ZIP com o manifesto relatorios.csv ou relatorios.xlsx.",
  unreadable: (detail: string) => `Não foi possível ler o pacote: ${detail}`.slice(0, 300),
  missing: "Não foi possível ler o pacote: o arquivo armazenado não foi encontrado.",
  tooLarge: (mb: number) => `Pacote grande demais (máximo ${mb} MB); nada foi aplicado.`,
  noManifest:
    "Pacote sem manifesto: inclua relatorios.csv ou relatorios.xlsx (colunas name, origin, dateRef, file); nada foi aplicado.",
  manyManifests: (names: string[]) =>
    `O pacote tem mais de um manifesto (${names.join(", ")}); deixe apenas um. Nada foi aplicado.`,
  missingColumns: (columns: string[]) =>
    `Manifesto sem as colunas ${columns.join(", ")} (esperado: name, origin, dateRef, file); nada foi aplicado.`,
  empty: "Manifesto vazio: nenhuma linha de relatório encontrada; nada foi aplicado.",
  rejected: (bad: number, total: number, first: string) =>
    `Pacote recusado, nada foi aplicado: ${bad.toLocaleString("pt-BR")} de ${countOf(total, "linha", "linhas")} com erro. ${first}`.slice(
      0,
      500,
    ),
  lineError: (line: number, error: string) => `Linha ${line}: ${error}`,
  storeFailed: (file: string) => `Não foi possível gravar o arquivo ${file}; nada foi aplicado.`.slice(0, 300),
  // Row rules (the Error of a NOK row, as the data templates word theirs)
  invalid: (column: string, value: string, rule: string) =>
    `Coluna ${column}: valor "${value.length > 60 ? `${value.slice(0, 59)}…` : value}" inválido; ${rule}`,
  required: "campo obrigatório",
  tooLong: (max: number) => `no máximo ${max} caracteres`,
  origins: "esperado automatico ou manual (vazio: manual)",
  month: "esperado um mês de competência entre 12/1950 e 12/2030 (AAAA-MM, MM/AAAA, AAAA-MM-DD ou DD/MM/AAAA)",
  fileMissing: "arquivo não encontrado no pacote",
  fileFormat: (extensions: readonly string[]) => `formato de arquivo não aceito; esperado ${extensions.join(", ")}`,
  fileTooLarge: (mb: number) => `arquivo acima de ${mb} MB`,
  duplicate: (line: number) => `mesmo nome, origem e competência da linha ${line}`,
} as const;

/**
 * Texts of the upload templates: the list on /captura/manual and the XLSX downloads (ours; docs/decisions.md
 * "Uploads and jobs").
 */
export const templateTexts = {
  title: "Modelos de carga",
  intro:
    "Baixe o modelo, preencha a primeira planilha (o cabeçalho identifica o modelo) e envie o arquivo acima. A segunda planilha explica cada coluna.",
  caption: "Modelos de carga disponíveis",
  columnTemplate: "Modelo",
  columnFeeds: "Alimenta",
  columnMode: "O que o envio faz",
  columnDownload: "Download",
  download: "Baixar XLSX",
  downloadOf: (label: string) => `Baixar XLSX: modelo ${label}`,
  allOrNothingNote: "Tudo ou nada: se alguma linha for inválida, nada é aplicado; elas ficam listadas na base NOK.",
  okNokNote: "Linhas válidas entram; inválidas vão para a base NOK com o erro.",
  sheetData: "Modelo",
  sheetColumns: "Colunas",
  helpColumn: "Coluna",
  helpType: "Tipo",
  helpUnit: "Unidade",
  helpRequired: "Obrigatória",
  helpRule: "Regra",
  helpDescription: "Descrição",
  helpWriteMode: "O que o envio faz",
  helpFeeds: "Telas",
  helpAllOrNothing: "Tudo ou nada",
  allOrNothingText:
    "Se alguma linha for inválida, nada do arquivo é aplicado; as linhas inválidas ficam listadas na base NOK com o número da linha e o erro.",
  helpExample: "Linha de exemplo",
  exampleText:
    "A linha 2 da planilha Modelo é um exemplo: uma linha igual a ela (mesmos valores, como o envio os lê) não é carregada; o processamento a informa como linha de exemplo do modelo, ignorada. Substitua-a pelos seus dados ou apague-a.",
  exampleNote: "Linha de exemplo: uma linha igual a esta é ignorada no envio. Substitua-a pelos seus dados.",
  yes: "sim",
  no: "não",
  unknownTemplate: "Modelo não encontrado.",
} as const;

/** ours: the files that leave the pipeline: refused rows as CSV, and an HR upload as /ij/rh shows it. */
export const exportedFileTexts = {
  nokCsvLine: "Linha",
  nokCsvError: "Erro",
  nokCsvFileName: (name: string) => `linhas-nok-${name.replace(/\.[^.]*$/, "") || "arquivo"}.csv`,
  // the viewer's branches, CPF masked (hr-file-view.server.ts)
  hrFileName: (name: string) => `${name.replace(/\.[^.]*$/, "") || "arquivo"}-cpf-mascarado.csv`,
} as const;
