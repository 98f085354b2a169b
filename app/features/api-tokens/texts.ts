import { EXPIRY_WARNING_DAYS } from "./lifetimes";

/**
 * Texts of the personal API tokens screen (/user/tokens) and of the API's refusals (all ours; docs/decisions.md
 * "API tokens"). Re-exported by app/messages.ts; defined only here.
 */

const daysList = `${EXPIRY_WARNING_DAYS.join(" e ")} dias`;

export const tokenTexts = {
  title: "Tokens de API",
  menu: "Tokens de API",
  settingsHint: "para que outros sistemas da empresa usem a API do portal em seu nome.",
  intro:
    "Um token permite que outro sistema use a API do portal em seu nome, com as suas permissões de cada momento. Guarde-o como uma senha: ele aparece uma única vez.",
  allTitle: "Tokens de API de todos os usuários",
  scimTitle: "Tokens SCIM",
  scimIntro:
    "Um token SCIM permite que o provedor de identidade da empresa (Okta, Microsoft Entra ID) crie, altere, desative e exclua usuários e defina o tipo de permissão pelos grupos.",
  scimHelp: [
    "No provedor de identidade, informe o endereço abaixo como URL base do SCIM (Okta: SCIM connector base URL; Entra ID: Tenant URL) e o token como cabeçalho Authorization: Bearer (Okta: HTTP Header; Entra ID: Secret Token).",
    "Os grupos do provedor são vinculados aos tipos de permissão que já existem no portal, pelo nome; o SCIM não cria grupos.",
    `Quando o token expira, o provisionamento para: escolha uma validade longa ou sem expiração. O portal avisa todos os SYSTEM ADMIN ${daysList} antes, no portal e por e-mail.`,
  ],
  scimGuide: "Passo a passo para Okta e Entra ID",
  scimBaseUrlLabel: "URL base do SCIM",
  copyScimBaseUrl: "Copiar URL",
  copyScimBaseUrlFailed: "Não foi possível copiar: a URL está selecionada, copie com Ctrl+C.",
  showScim: "Ver os tokens SCIM",
  showAll: "Ver os tokens de todos os usuários",
  showMine: "Ver apenas os meus tokens",
  disabled: "Os tokens de API estão desativados neste portal (configuração API_TOKENS).",
  createTitle: "Novo token",
  nameLabel: "Nome",
  nameHint: "Para que serve, por exemplo: ERP - fechamento mensal.",
  daysLabel: "Validade (dias)",
  daysHint: "De 1 a 365 dias; 90 se não for informada.",
  scimLifeLabel: "Validade",
  scimLives: {
    "90": "90 dias (padrão)",
    "180": "180 dias",
    "365": "365 dias",
    never: "Sem expiração",
  } as Record<string, string>,
  scimLifeHint: "Sem expiração, o token vale até ser revogado nesta página.",
  scopeLabel: "Permissão",
  scopes: { read: "Somente leitura", write: "Leitura e escrita" } as Record<string, string>,
  create: "Criar token",
  createdTitle: "Token criado",
  createdOnce: "Copie o token agora: ele não será mostrado novamente.",
  copy: "Copiar token",
  copied: "Copiado",
  copyFailed: "Não foi possível copiar: o token está selecionado, copie com Ctrl+C.",
  columns: {
    name: "Nome",
    owner: "Usuário",
    scope: "Permissão",
    createdAt: "Criado em",
    lastUsedAt: "Último uso",
    expiresAt: "Expira em",
    state: "Situação",
    actions: "Ações",
  },
  never: "Nunca",
  noExpiry: "Sem expiração",
  states: { live: "Ativo", expired: "Expirado", revoked: "Revogado" } as Record<string, string>,
  revoke: "Revogar",
  revokeLabel: (name: string) => `Revogar o token ${name}`,
  revoked: (name: string) => `Token revogado: ${name}.`,
  empty: "Nenhum token.",
  errors: {
    name: "Informe um nome de 1 a 80 caracteres.",
    days: "Informe uma validade de 1 a 365 dias.",
    scimDays: "Escolha a validade do token SCIM: 90, 180 ou 365 dias, ou sem expiração.",
    scope: "Escolha a permissão do token.",
    notFound: "Token não encontrado.",
    alreadyRevoked: "Este token já estava revogado.",
    notYours: "Só é possível revogar os próprios tokens.",
    scimAdminOnly: "Só um SYSTEM ADMIN cria tokens SCIM.",
    limit: (max: number) => `Limite de ${max} tokens ativos atingido: revogue um antes de criar outro.`,
  },
  /** The warnings before a token expires (a notice and its e-mail). */
  expiry: {
    title: (kind: "personal" | "scim", name: string, days: number) =>
      `${kind === "scim" ? "Token SCIM" : "Token de API"} ${name} expira em ${days === 1 ? "1 dia" : `${days} dias`}`,
    personalBody: (name: string, when: string) =>
      `O seu token de API "${name}" deixa de funcionar em ${when}, e o que o usa recebe 401 a partir daí. Crie um novo em Tokens de API, troque-o no sistema que usa o antigo e revogue o antigo.`,
    scimBody: (name: string, when: string) =>
      `O token SCIM "${name}" deixa de funcionar em ${when}: a partir daí o provedor de identidade (Okta, Entra ID) não cria, altera nem desativa mais usuários no portal. Crie um novo token SCIM (pode ser sem expiração), troque-o no provedor e revogue o antigo.`,
  },
};

/** The API's answers in words (RFC 9457 `title` and `detail`). */
export const apiTexts = {
  unauthorized: "Token de API ausente ou inválido.",
  unauthorizedDetail:
    "Envie o cabeçalho Authorization: Bearer <token> com um token ativo criado em /user/tokens. Cookies de sessão não valem na API.",
  expired: "Token de API expirado.",
  revoked: "Token de API revogado.",
  ownerGone: "O dono do token não tem mais acesso ao portal.",
  disabled: "Os tokens de API estão desativados neste portal.",
  tooMany: "Muitas tentativas com tokens inválidos.",
  tooManyDetail: (seconds: number) => `Tente novamente em ${seconds} s.`,
  forbidden: "Acesso negado.",
  forbiddenRule: (rule: string) => `O tipo de permissão do dono do token não atende à regra de ${rule}.`,
  readOnly: "Este token é somente leitura.",
  notFound: "Não encontrado.",
  notFoundPath: "Não há operação da API neste endereço. Veja /api/v1/openapi.json.",
  methodNotAllowed: "Método não permitido neste endereço.",
  invalid: "Parâmetros inválidos.",
  jobNotFound: "Job não encontrado.",
  branchNotFound: "Filial não encontrada.",
  costCenterNotFound: "Centro de custo não encontrado.",
  datasetUnknown: (id: string) => `Base desconhecida: ${id}. Veja GET /api/v1/datasets.`,
  datasetRefused: (label: string) => `Seu tipo de permissão não pode carregar ${label}.`,
  noBody: "Envie o arquivo no corpo da requisição (CSV ou XLSX).",
  contentType: "Content-Type deve ser text/csv ou o tipo do XLSX.",
  uploadFailed: "O envio não foi aceito.",
  docsTitle: "API do Journey Portal",
  docsIntro:
    "A API REST do portal: os mesmos dados e as mesmas regras das telas, com um token pessoal (Authorization: Bearer). O documento OpenAPI está em",
  docsAuth: "Crie um token em /user/tokens. O guia em /api/docs mostra o envio e o acompanhamento com curl.",
  docsParameters: "Parâmetros",
  docsResponses: "Respostas",
  docsExample: "Exemplo",
  docsRequired: "obrigatório",
  docsBody: "Corpo",
  docsRule: "Regra",
};
