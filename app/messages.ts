/**
 * Every user-visible text, gathered: the portal-wide texts (access, header, user administration, errors, the host's
 * answers) are defined here; each feature's texts are defined once in its folder (`texts.ts`, which the feature's own
 * modules import directly) and re-exported below for routes and other features. The spec's texts are verbatim; texts the spec left to us are
 * marked "ours" and recorded in docs/decisions.md.
 */
// The shared modules' texts are defined beside them (they import nothing above app/shared) and gathered here.
import { uploadTexts } from "~/platform/import/texts";
import { formTexts } from "~/shared/forms/texts";
import { passwordMismatchMessage } from "~/shared/password-policy";
import { uiTexts } from "~/shared/ui/texts";

export const messages = {
  // Access (spec 000 §2, §5, §8)
  loginRequired: "Login e senha Obrigatórios!",
  incorrectCredentials: "Incorrect username or password.",
  incorrectCredentialsPt: "Login ou senha Incorretos!",
  passwordMismatch: passwordMismatchMessage,
  contactAdmin: "CONTATE SEU ADMIN",
  passwordConfigured: "Senha configurada!",
  passwordAccepted: "Sua senha foi aceita com sucesso! Você pode efetuar login.",
  recoveryEmailSent:
    "E-mail enviado com sucesso! Verifique sua caixa de entrada de e-mails. Você recebeu um código e um link para reconfigurar sua senha.",
  sessionExpiredTitle: "Aviso",
  sessionExpired: "Ops. essa sessão expirou! Faça login novamente.",
  loginButton: "Login",
  ssoButton: (companyName: string) => `${companyName} Entrar`,
  passwordHelper: "A senha deve ter no mínimo 8 caracteres, com pelo menos 1 letra maiúscula e 1 caractere especial.",
  // ours: rate limit of failed sign-ins
  tooManyAttempts: "Muitas tentativas de login. Aguarde alguns minutos e tente novamente.",
  // ours: rate limit of reset-code attempts at /recovery/{code}
  tooManyRecoveryAttempts: "Muitas tentativas de redefinição de senha. Aguarde alguns minutos e tente novamente.",
  // ours: the identity provider throttled the request (Cognito TooManyRequests / LimitExceeded)
  identityBusy: "O serviço de login está recebendo muitas solicitações. Aguarde alguns minutos e tente novamente.",
  // ours: forgot password, first access, recovery and logout screens
  forgotPasswordLink: "Esqueci minha senha",
  forgotPasswordTitle: "Recuperar senha",
  forgotPasswordPrompt: "Informe o e-mail de cadastro. Enviaremos um código e um link para você reconfigurar a senha.",
  registrationEmailLabel: "E-mail de cadastro",
  emailRequired: "Informe o e-mail de cadastro.",
  invalidEmail: "Informe um e-mail válido.",
  send: "Enviar",
  or: "ou",
  firstAccessTitle: "Primeiro acesso",
  firstAccessPrompt: "Defina uma nova senha para continuar.",
  newPasswordLabel: "Nova senha",
  confirmPasswordLabel: "Confirmação da nova senha",
  savePassword: "Salvar senha",
  firstAccessExpired: "O prazo para definir a nova senha expirou. Entre novamente com a senha temporária.",
  recoveryTitle: "Redefinir senha",
  codeLabel: "Código",
  codeRequired: "Informe o código recebido por e-mail.",
  resetPassword: "Redefinir senha",
  invalidForm: formTexts.invalidForm,
  logoutTitle: "Sair do portal",
  logoutPrompt: "Deseja encerrar a sua sessão?",
  // ours: single sign-on (/saml) failures and progress
  ssoFailed: "Não foi possível entrar com o login corporativo. Tente novamente.",
  ssoEmailNotVerified:
    "O e-mail da sua conta corporativa não está verificado. Procure o administrador do seu login corporativo.",
  ssoSigningIn: "Entrando...",
  ssoNeedsJavascript: "Ative o JavaScript do navegador para concluir o login corporativo.",

  // Header menu
  menuUserSettings: "Configurações de usuários",
  menuUserManagement: "Gerenciamento de usuários",
  menuLogout: "Logout",

  // User administration
  userConfigHeader: "User ADMIN / Criação de usuários",
  usersCreated: (n: number) => `${n} usuários criados`,
  userPermissionHeader: "System ADMIN / Configuração de usuário",
  saved: "Salvo com sucesso!",
  ops: "OPS!",
  userExists: "Usuário já cadastrado.",
  // ours: user creation that could not be completed (nothing was kept)
  createUserMailFailed:
    "Não foi possível enviar o e-mail com a senha temporária. O usuário não foi criado; tente novamente mais tarde.",
  createUserBusy:
    "O serviço de login está recebendo muitas solicitações. O usuário não foi criado; aguarde alguns minutos e tente novamente.",
  userDeleted: "Usuário excluido com sucesso.",
  permissionAssigned: "Permissão atribuida com sucesso.",
  confirm: "Confirmar",
  cancel: "Cancelar",
  // /user/config columns (spec 000 §2)
  columnEmail: "Email",
  columnCreatedAt: "Data de Criação",
  columnDelete: "Deletar usuário",
  // ours: user administration (/user/config, /user/permission)
  createUser: "Criar usuário",
  createUserTitle: "Novo usuário",
  createUserPrompt: "O usuário receberá por e-mail uma senha temporária, que deverá trocar no primeiro acesso.",
  deleteUserTitle: "Deletar usuário",
  deleteUserPrompt: (email: string) => `Deseja excluir o usuário ${email}? Esta ação não pode ser desfeita.`,
  deleteAction: "Deletar",
  deleteUserAction: (email: string) => `Deletar ${email}`,
  userNotFound: "Usuário não encontrado.",
  userProtected: "Este usuário é administrativo e não pode ser alterado por esta tela.",
  invalidTier: "Permissão inválida. Escolha Explorer, Básico, Padrão ou Avançado.",
  permissionConfirmTitle: "Confirmar permissão",
  permissionConfirmPrompt: (user: string, tierLabel: string) => `Atribuir a permissão ${tierLabel} ao usuário ${user}?`,
  tierChoiceLabel: (user: string) => `Permissão de ${user}`,
  noUsers: "Nenhum usuário cadastrado.",
  // ours: the e-mail search of the user lists and the highlight of a user just created
  userSearchRegion: "Busca de usuários",
  userSearchLabel: "Buscar por e-mail",
  userSearchButton: "Buscar",
  userSearchClear: "Limpar busca",
  userSearchTooLong: (max: number) => `A busca aceita no máximo ${max} caracteres.`,
  userSearchEmpty: (search: string) => `Nenhum usuário com “${search}” no e-mail.`,
  userSearchSummary: (search: string, n: number) =>
    `${n} ${n === 1 ? "usuário" : "usuários"} com “${search}” no e-mail.`,
  newUserBadge: "Novo",
  columnUser: "Usuário",
  columnName: "Nome",
  columnPermission: "Permissão",
  noPermission: "sem permissão",

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
  noDataFound: "No data found",
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
  reportGenerated: "Report generated successfully.",
  editingSaved: "Editing saved successfully",
  close: uiTexts.close,
  numberNotValid: "Number is not valid",
  genericError: "Ocorreu um erro.",
  savingData: "Salvando Dados...",
  noSearchResults: "Sorry, no results found.",
  exactPhrase: "Frase Exata",
  pinColumn: "Fixar coluna",
  unpinColumn: "Desfixar coluna",
  increase: "Aumentar",
  decrease: "Diminuir",

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
  emailLabel: "E-mail",
  passwordLabel: "Senha",
  loginTitle: "Acesse sua conta",
  closeNotice: uiTexts.closeNotice,
  notifications: uiTexts.notifications,
  mainNavigation: uiTexts.mainNavigation,
  openMenu: uiTexts.openMenu,
  closeMenu: uiTexts.closeMenu,
  skipToContent: uiTexts.skipToContent,
  userMenu: uiTexts.userMenu,
} as const;

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
