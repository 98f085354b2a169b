/**
 * Every user-visible text that the spec quotes, verbatim, defined once.
 * Texts the spec left to us are marked "ours" and recorded in docs/decisions.md.
 */
export const messages = {
  // Access (spec 000 §2, §5, §8)
  loginRequired: "Login e senha Obrigatórios!",
  incorrectCredentials: "Incorrect username or password.",
  incorrectCredentialsPt: "Login ou senha Incorretos!",
  passwordMismatch: "Por favor verifique se as senhas correspondem.",
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
  invalidForm: "Não foi possível ler o formulário. Recarregue a página e tente novamente.",
  logoutTitle: "Sair do portal",
  logoutPrompt: "Deseja encerrar a sua sessão?",
  // ours: single sign-on (/saml) failures and progress
  ssoFailed: "Não foi possível entrar com o login corporativo. Tente novamente.",
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
  columnUser: "Usuário",
  columnName: "Nome",
  columnPermission: "Permissão",
  noPermission: "sem permissão",

  // Files, uploads, jobs
  downloadFailed: "Ocorreu um erro ao fazer o download.",
  uploadFailed: "Ocorreu um erro ao fazer o upload. COD.2",
  uploadRegistrationFailed: "Ocorreu um erro ao fazer upload do arquivo. COD.3",
  jobCompleted: "Completed",
  jobInProgress: "In progress",
  previous: "Previous",
  next: "Next",
  itemsPerPage: "Items per page",

  // Master data
  noDataFound: "No data found",
  baseOk: "Base Ok",
  baseNok: "Base NOK",

  // Planning, reports (spec 001)
  reportGenerated: "Report generated successfully.",
  editingSaved: "Editing saved successfully",
  close: "Close",
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
  forbiddenTitle: "Acesso negado",
  forbidden: "Você não tem permissão para acessar esta página.",
  notFoundTitle: "Página não encontrada",
  notFound: "O endereço que você procurou não existe.",
  serverErrorTitle: "Erro inesperado",
  serverError: "Algo deu errado do nosso lado. Tente novamente em instantes.",
  backHome: "Voltar ao início",

  // Shell (ours): login field labels, toasts, dialogs
  emailLabel: "E-mail",
  passwordLabel: "Senha",
  loginTitle: "Acesse sua conta",
  closeNotice: "Fechar aviso",
  notifications: "Notificações",
  mainNavigation: "Navegação principal",
  userMenu: "Menu do usuário",
} as const;
