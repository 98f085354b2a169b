/**
 * Every user-visible text, gathered: the portal-wide texts (header, uploads, errors, the host's answers) are defined
 * here, the access feature's (sign-in, user administration) in app/features/access/texts.ts and spread in below; each
 * other feature's texts are defined once in its folder (`texts.ts`, which the feature's own modules import directly)
 * and re-exported below for routes and other features. The spec's texts are verbatim; texts the spec left to us are
 * marked "ours" and recorded in docs/decisions.md.
 */
// The shared modules' texts are defined beside them (they import nothing above app/shared) and gathered here.
import { accessTexts } from "~/features/access/texts";
import { uploadTexts } from "~/platform/import/texts";
import { formTexts } from "~/shared/forms/texts";
import { passwordMismatchMessage } from "~/shared/password-policy";
import { uiTexts } from "~/shared/ui/texts";

export const messages = {
  ...accessTexts,
  passwordMismatch: passwordMismatchMessage,
  saved: uiTexts.saved,
  confirm: uiTexts.confirm,
  cancel: uiTexts.cancel,
  invalidForm: formTexts.invalidForm,

  // Header menu
  menuUserSettings: "Configurações de usuários",
  menuUserManagement: "Gerenciamento de usuários",
  menuLogout: "Logout",

  // Files, uploads, jobs
  downloadFailed: "Ocorreu um erro ao fazer o download.",
  uploadFailed: uploadTexts.uploadFailed,
  uploadRegistrationFailed: uploadTexts.uploadRegistrationFailed,
  uploadFailure: uploadTexts.uploadFailure,
  // ours: the confirmation of an upload, the same with JavaScript (one per file) and without (one per post). It speaks
  // of the transfer: whether the file is accepted is the job's to say (the upload list and Processamento show it).
  uploaded: (names: readonly string[]) =>
    names.length === 1
      ? `Upload concluído: ${names[0]}. O arquivo foi para a fila de processamento, que dirá se ele foi aceito.`
      : `Upload concluído: ${names.join(", ")}. Os arquivos foram para a fila de processamento, que dirá se foram aceitos.`,
  // ours: why an upload or its registration was refused (shown after the COD.2 / COD.3 text)
  uploadTooLarge: (limit: string) => `Arquivo maior que o limite de ${limit}.`,
  uploadTooManyFiles: uploadTexts.uploadTooManyFiles,
  uploadPostTooLarge: uploadTexts.uploadPostTooLarge,
  uploadPartsMismatch: "As partes enviadas não correspondem ao upload.",
  uploadObjectMissing: uploadTexts.uploadObjectMissing,
  uploadAlreadyRegistered: uploadTexts.uploadAlreadyRegistered,
  uploadRegisterFailedFor: uploadTexts.uploadRegisterFailedFor,
  uploadTransferBroken: uploadTexts.uploadTransferBroken,
  // ours: a request whose fields are malformed (a forged or broken form; the pages never send one)
  badRequest: "Pedido inválido.",
  uploadLocalOnly: "Este ambiente usa o upload local (/api/upload).",
  uploadNotAuthorized: "Upload não autorizado.",
  storageUnavailable: "Falha ao falar com o armazenamento.",
  uploadRegisterBadRequest: "Pedido de registro inválido: envie JSON ou formulário com até 16 KB.",
  jobCompleted: "Completed",
  jobInProgress: "In progress",
  previous: uiTexts.previous,
  next: uiTexts.next,
  itemsPerPage: uiTexts.itemsPerPage,

  // Master data
  noDataFound: uiTexts.noDataFound,
  // Explorer (spec 001 §2, §8)
  searchButton: "Search",
  // ours: explorer labels
  searchLabel: "Pesquisar",
  searchPlaceholder: "Digite palavras ou uma frase",
  searchHint:
    "Digite um termo e pressione Enter ou Search. Sem diferença entre maiúsculas, minúsculas e acentos; pontuação é ignorada.",
  searchResultsCaption: "Resultados da pesquisa",
  searchColumnDocument: "Documento",
  searchColumnCategory: "Categoria",
  searchColumnSource: "Origem",
  searchColumnDate: "Data",
  searchResultCount: (total: number) => `${total.toLocaleString("pt-BR")} ${total === 1 ? "resultado" : "resultados"}`,
  baseOk: "Base Ok",
  baseNok: "Base NOK",
  // Planning, reports (spec 001)
  reportGenerated: uiTexts.reportGenerated,
  editingSaved: uiTexts.editingSaved,
  close: uiTexts.close,
  numberNotValid: uiTexts.numberNotValid,
  genericError: "Ocorreu um erro.",
  savingData: uiTexts.savingData,
  noSearchResults: "Sorry, no results found.",
  exactPhrase: "Frase Exata",
  pinColumn: uiTexts.pinColumn,
  unpinColumn: uiTexts.unpinColumn,
  increase: uiTexts.increase,
  decrease: uiTexts.decrease,

  // Error pages (ours)
  forbiddenTitle: uiTexts.forbiddenTitle,
  forbidden: uiTexts.forbidden,
  crossOriginRefused:
    "Este formulário foi enviado de outro site e foi recusado. Abra o portal pelo seu endereço e tente de novo.",
  badRequestTitle: "Pedido inválido",
  invalidHost: "O endereço do servidor no pedido não é válido.",
  legacyDataRequest: "Este tipo de pedido de dados (?_data) não é mais aceito. Recarregue a página.",
  notFoundTitle: uiTexts.notFoundTitle,
  notFound: uiTexts.notFound,
  serverErrorTitle: uiTexts.serverErrorTitle,
  serverError: uiTexts.serverError,
  backHome: uiTexts.backHome,

  // Shell (ours): login field labels, toasts, dialogs
  dashboardLoading: uiTexts.dashboardLoading,
  closeNotice: uiTexts.closeNotice,
  notifications: uiTexts.notifications,
  mainNavigation: uiTexts.mainNavigation,
  openMenu: uiTexts.openMenu,
  closeMenu: uiTexts.closeMenu,
  skipToContent: uiTexts.skipToContent,
  userMenu: uiTexts.userMenu,
} as const;

export { apiTexts, tokenTexts } from "~/features/api-tokens/texts";
export { auditTexts } from "~/features/audit/texts";
export { dashboardTexts } from "~/features/dashboards/texts";
export { explorerTexts } from "~/features/explorer/texts";
export { preparersTexts } from "~/features/forecast/preparers/texts";
export { forecastTexts } from "~/features/forecast/texts";
export { hrTexts } from "~/features/hr/texts";
export { noticeTexts } from "~/features/notices/texts";
export { planningTexts } from "~/features/planning/texts";
export { reportsTexts } from "~/features/reports-and-financial/texts";
export { masterDataTexts } from "~/features/repository-and-master-data/texts";
export { savedViewTexts } from "~/features/saved-views/texts";
export { subscriptionTexts } from "~/features/subscriptions/texts";
// Each feature's texts live in its folder (app/features/<feature>/texts.ts) and are imported from here, the one
// entrance for every text; those modules import nothing, so gathering them here adds no dependency between layers.
export { jobTexts, uploadScreenTexts, uploadTargetTexts } from "~/features/uploads-and-jobs/texts";
export {
  documentImportTexts,
  reportBundleTexts,
  templateTexts,
  uploadRightsTexts,
} from "~/platform/import/texts";
export { excelTexts } from "~/shared/excel/texts";

/** Texts the host answers with before or around the app: service unavailable, malformed requests. */
export const deployTexts = {
  unavailableTitle: uiTexts.unavailableTitle,
  unavailable: uiTexts.unavailable,
  headersTooLargeTitle: "Cabeçalhos grandes demais",
  headersTooLarge:
    "O pedido trouxe cabeçalhos (por exemplo, cookies) grandes demais. Apague os cookies deste site e tente novamente.",
  malformedRequest: "O pedido não pôde ser lido.",
  bodyTooLargeTitle: "Pedido grande demais",
  bodyTooLarge: (mb: number) => `O pedido passa do limite de ${mb} MB e foi recusado.`,
} as const;
