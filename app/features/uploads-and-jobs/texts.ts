/** Texts of the upload screen, the job lists and the file repository. */
import { countOf } from "~/shared/excel/count-text";

/** The write rule of uploads (ours: docs/access.md "Upload targets"). */
export const uploadRightsTexts = {
  notAllowed: (dataset: string) => `Você não tem permissão para carregar ${dataset}`,
  outsideBranchScope: "filial fora das lojas liberadas para você (/ij/rh)",
  reportsLabel: "pacotes de relatórios",
  explorerLabel: "documentos do Explorer",
};

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
  iconError: "Erro",
  // ours: a job that ended with a non-zero status says so in words, not only by the icon's colour.
  // Refused: the file itself was not accepted, and sending it again changes nothing. Failed: processing broke off
  // (the worker died, the reading stalled, the storage did not answer); "Tentar novamente" may succeed.
  stateRefused: "Recusado",
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
  // ours (issue 54): "Tentar novamente todos" on both job lists
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
  // ours (issue 54): the refused rows as an XLSX in the template's layout, to fix and send again
  fixRows: "Baixar linhas recusadas para corrigir",
  fixRowsOf: (name: string) => `Baixar linhas recusadas de ${name} para corrigir (XLSX)`,
  fixRowsReason: "Motivo da recusa",
  fixRowsSheet: "Dados",
  fixRowsFileName: (name: string) => `corrigir-${name.replace(/\.[^.]*$/, "") || "arquivo"}.xlsx`,
  nokRows: "Linhas NOK",
  nokRowsOf: (name: string) => `Linhas NOK de ${name}`,
  // ours: the refused rows of an all-or-nothing upload (spec-001 datasets, report packages) as a CSV download
  nokRowsDownloadOf: (name: string) => `Baixar as linhas NOK de ${name} (CSV)`,
  nokCsvLine: "Linha",
  nokCsvError: "Erro",
  nokCsvFileName: (name: string) => `linhas-nok-${name.replace(/\.[^.]*$/, "") || "arquivo"}.csv`,
  // ours: an HR upload downloaded as /ij/rh shows it (the viewer's branches, CPF masked; hr-file-view.server.ts)
  hrFileName: (name: string) => `${name.replace(/\.[^.]*$/, "") || "arquivo"}-cpf-mascarado.csv`,
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
  empty: "Nenhum arquivo selecionado.",
} as const;

/**
 * ours: the "Tipo de carga" choice of /captura/manual, and the job messages of explorer documents and
 * report packages (docs/decisions.md, "Uploads: explorer documents and report packages").
 */
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
  invalid: (value: string) =>
    `Tipo de carga inválido: "${value.length > 40 ? `${value.slice(0, 39)}…` : value}". Escolha Planilha de dados, Documento do Explorer ou Pacote de relatórios.`,
  ofItem: (label: string) => `Tipo de carga: ${label}`,
} as const;

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

/** Texts of the upload templates: the list on /captura/manual and the XLSX downloads (ours; docs/decisions.md "Upload templates"). */
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
  allOrNothingNote: "Tudo ou nada: se alguma linha for inválida, nada é aplicado.",
  okNokNote: "Linhas válidas entram; inválidas vão para a base NOK.",
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
