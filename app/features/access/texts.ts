import { passwordHelperText } from "~/shared/password-policy";

/**
 * User-visible texts of the access feature (spec 000 §2, §5, §8, §9): sign-in, first access, recovery, single sign-on
 * and the user administration. The spec's texts are verbatim; texts the spec left to us are marked "ours". Gathered
 * into app/messages.ts's `messages`; defined only here (a module of its own, so the sign-in page downloads no other
 * feature's texts).
 */
export const accessTexts = {
  // Access (spec 000 §2, §5, §8)
  loginRequired: "Login e senha Obrigatórios!",
  incorrectCredentials: "Incorrect username or password.",
  incorrectCredentialsPt: "Login ou senha Incorretos!",
  contactAdmin: "CONTATE SEU ADMIN",
  passwordConfigured: "Senha configurada!",
  passwordAccepted: "Sua senha foi aceita com sucesso! Você pode efetuar login.",
  recoveryEmailSent:
    "E-mail enviado com sucesso! Verifique sua caixa de entrada de e-mails. Você recebeu um código e um link para reconfigurar sua senha.",
  sessionExpiredTitle: "Aviso",
  sessionExpired: "Ops. essa sessão expirou! Faça login novamente.",
  loginButton: "Login",
  ssoButton: (companyName: string) => `${companyName} Entrar`,
  passwordHelper: passwordHelperText,
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
  logoutTitle: "Sair do portal",
  logoutPrompt: "Deseja encerrar a sua sessão?",
  // ours: single sign-on (/saml) failures and progress
  ssoFailed: "Não foi possível entrar com o login corporativo. Tente novamente.",
  ssoEmailNotVerified:
    "O e-mail da sua conta corporativa não está verificado. Procure o administrador do seu login corporativo.",
  ssoSigningIn: "Entrando...",
  ssoNeedsJavascript: "Ative o JavaScript do navegador para concluir o login corporativo.",

  // Login field labels and title (ours)
  emailLabel: "E-mail",
  passwordLabel: "Senha",
  loginTitle: "Acesse sua conta",

  // User administration
  userConfigHeader: "User ADMIN / Criação de usuários",
  usersCreated: (n: number) => `${n} usuários criados`,
  userPermissionHeader: "System ADMIN / Configuração de usuário",
  ops: "OPS!",
  userExists: "Usuário já cadastrado.",
  // ours: user creation that could not be completed (nothing was kept)
  createUserMailFailed:
    "Não foi possível enviar o e-mail com a senha temporária. O usuário não foi criado; tente novamente mais tarde.",
  createUserBusy:
    "O serviço de login está recebendo muitas solicitações. O usuário não foi criado; aguarde alguns minutos e tente novamente.",
  userDeleted: "Usuário excluido com sucesso.",
  permissionAssigned: "Permissão atribuida com sucesso.",
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
} as const;
