import type { CsvDelimiter, CsvEncoding } from "~/platform/import/readers.server";
import type { GuideSection } from "./api-guide-facts";

/**
 * The developer guide of /api/docs (api-guide.tsx), in the portal's language. The facts it states (paths, lists,
 * numbers) are not written here: they come from the code (api-guide-facts.ts); these are the words around them.
 */

const list = (items: readonly (string | number)[]) =>
  items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]}`;

export const guideTexts = {
  intro:
    "Este guia mostra como outro sistema da empresa usa a API do portal: criar o token, enviar um arquivo e acompanhar o job, o formato do CSV, a paginação, os erros e o provisionamento de usuários por SCIM (Okta e Microsoft Entra ID).",
  contents: "Conteúdo",
  sections: {
    tokens: "Tokens",
    envio: "Enviar e acompanhar, com curl",
    csv: "CSV: separador e codificação",
    paginacao: "Paginação",
    erros: "Erros",
    scim: "SCIM: Okta e Microsoft Entra ID",
    operacoes: "Referência das operações",
  } satisfies Record<GuideSection, string>,

  tokens: {
    header: "Toda chamada leva o cabeçalho Authorization: Bearer <token>. Cookies de sessão não valem na API.",
    createIn: "Crie o seu token em",
    createLink: "Tokens de API",
    steps: (defaultDays: number, maxDays: number, prefix: string) => [
      "Dê um nome que diga para que serve, por exemplo: ERP - fechamento mensal.",
      `Escolha a validade: de 1 a ${maxDays} dias (${defaultDays} se não for informada).`,
      "Escolha a permissão (abaixo).",
      `Copie o token (começa com ${prefix}): ele aparece uma única vez; o portal guarda só o seu SHA-256.`,
    ],
    scopes: {
      read: "Somente leitura: consulta; um envio ou uma nova tentativa é recusado (403, read-only).",
      write: "Leitura e escrita: também envia arquivos e pede novas tentativas.",
    } as Record<string, string>,
    actsAsYou: (maxLive: number) =>
      `O token age como você, com o seu tipo de permissão de cada momento: se o seu tipo mudar, ele passa a poder o que o novo tipo pode; se o seu acesso for removido, ele para de funcionar. Revogue-o na mesma página quando quiser. No máximo ${maxLive} tokens ativos por usuário.`,
    warnings: (days: readonly number[]) =>
      `${list(days)} dias antes de um token expirar, o dono recebe um aviso no portal e por e-mail (de um token SCIM, todos os SYSTEM ADMIN), uma vez cada.`,
  },

  upload: {
    intro:
      "Um envio é assíncrono: o arquivo entra na mesma fila dos envios pela tela (/captura/manual), com as mesmas regras e recusas, e o job informa o andamento.",
    commentTokenWrite: "de Tokens de API, com Leitura e escrita",
    commentDatasets: "Quais bases posso carregar (id, colunas e regras de cada uma)?",
    commentSend: "Envia o arquivo: 202 com o job; o endereço do job vem no cabeçalho Location",
    commentPoll: "Repita até state ser completed ou failed",
    commentRefused: "As linhas recusadas, quando o job traz links.refused",
    commentRetry: 'Uma falha que um novo processamento pode superar (links.retry): "Tentar novamente"',
    bodyTypes: (types: readonly string[]) => `O corpo é o próprio arquivo, com Content-Type ${list(types)}.`,
    states: (states: readonly string[]) => `state é ${list(states)}; outcome detalha:`,
    outcomes: {
      running: "em andamento: consulte de novo em alguns segundos.",
      completed: "todas as linhas foram carregadas.",
      completedWithRefusals:
        "as demais linhas foram carregadas; refusedRows conta as recusadas e links.refused as baixa para corrigir e reenviar.",
      refused:
        "o arquivo foi recusado pelo conteúdo (layout, linhas NOK de uma base tudo-ou-nada, permissão, tamanho): corrija e envie de novo.",
      failed: 'o processamento parou: links.retry ("Tentar novamente") pode superar a falha.',
    } as Record<string, string>,
  },

  csv: {
    intro:
      "Além de XLSX, cada base aceita CSV. As colunas de cada base estão em GET /api/v1/datasets; a primeira linha é o cabeçalho.",
    delimitersTitle: "Separador",
    delimitersRule:
      "Lido da primeira linha: tabulação quando ela tem alguma; senão ponto e vírgula ou vírgula, o que aparecer mais (vírgula no empate).",
    delimiters: {
      ";": "ponto e vírgula (;): o CSV do Excel em português",
      ",": "vírgula (,)",
      "\t": "tabulação: o Texto Unicode e o Texto (separado por tabulações) do Excel",
    } satisfies Record<CsvDelimiter, string>,
    encodingsTitle: "Codificação",
    encodingsRule:
      "Uma marca de ordem de bytes (BOM) decide; sem ela, UTF-8 quando o início do arquivo é UTF-8 válido, senão Windows-1252.",
    encodings: {
      "utf-8": "UTF-8, com ou sem BOM",
      "windows-1252":
        "Windows-1252: o CSV (separado por vírgulas) do Excel em português; um arquivo Latin-1 (ISO-8859-1) é lido igual",
      "utf-16le": "UTF-16 LE com BOM: o Texto Unicode do Excel",
    } satisfies Record<CsvEncoding, string>,
    quoting:
      'Aspas duplas como no RFC 4180: um campo entre aspas pode conter o separador e quebras de linha, e "" é uma aspa. Linhas vazias são ignoradas.',
  },

  paging: {
    intro:
      "As listas são paginadas por cursor: a resposta traz next; passe-o em cursor para ter a página seguinte, até next vir null. limit define os itens por página. Um cursor que não é o next de uma resposta é recusado (400).",
    operation: "Operação",
    limit: "limit",
    since: "Para buscar só os jobs alterados desde a última consulta, use since (instante ISO 8601) em",
    dates:
      "Datas e horas da API vêm em ISO 8601, em UTC (2026-11-29T05:04:09.000Z); as telas, os avisos e as exportações do portal mostram o mesmo instante no fuso do portal (29 nov 26 02:04:09).",
    scim: (defaultCount: number, maxCount: number) =>
      `No SCIM, as listas usam startIndex (a partir de 1) e count (padrão ${defaultCount}, no máximo ${maxCount}).`,
  },

  errors: {
    intro:
      "Toda recusa vem como application/problem+json (RFC 9457): type (/api/problems/<código>), title e detail em português e status. Um 400 lista em errors os parâmetros que falharam; um 403 diz em rule a tela cuja regra recusou; 401 traz WWW-Authenticate e 429 traz Retry-After (segundos). O SCIM responde no formato de erro do SCIM.",
    type: "type",
    status: "status",
    meaning: "Quando",
    problems: {
      unauthorized: ["401", "token ausente, desconhecido, expirado ou revogado, ou o dono perdeu o acesso."],
      forbidden: ["403", "o tipo de permissão do dono do token não atende à regra da tela (rule)."],
      "read-only": ["403", "um token Somente leitura tentou escrever."],
      "not-found": ["404", "o endereço ou o recurso não existe, ou não é visível para o dono do token."],
      "method-not-allowed": ["405", "método não aceito neste endereço."],
      invalid: ["400", "parâmetros inválidos (errors lista quais), ou um endereço que não se decodifica."],
      conflict: ["409", "o estado não permite (por exemplo, nova tentativa de um job que não falhou)."],
      "too-large": ["413", "arquivo ou requisição maior que o limite."],
      "unsupported-media-type": ["415", "Content-Type do envio não aceito."],
      "too-many-requests": ["429", "muitas tentativas com tokens inválidos deste endereço: espere Retry-After."],
      "upload-refused": ["4xx", "o envio não foi aceito (detail diz por quê)."],
      unavailable: ["503", "o portal está indisponível no momento (banco de dados, reinício): tente de novo."],
      "server-error": ["500", "erro inesperado do portal: tente de novo; se persistir, avise o suporte."],
    } as Record<string, readonly [string, string]>,
  },

  scim: {
    intro:
      "O provedor de identidade mantém os usuários do portal em dia com o diretório da empresa pelo SCIM 2.0: cria, altera, desativa e exclui usuários e define o tipo de permissão pelos grupos.",
    baseUrl: "URL base do SCIM",
    token: (lives: string, days: readonly number[]) =>
      `Token: um SYSTEM ADMIN cria em Tokens SCIM, com validade de ${lives}. Quando ele expira, o provisionamento para; por isso os SYSTEM ADMIN recebem avisos ${list(days)} dias antes. O token vale enquanto quem o criou for SYSTEM ADMIN.`,
    tokenLink: "Tokens SCIM",
    never: "sem expiração",
    days: (n: string) => `${n} dias`,
    groupsTitle: "Grupos",
    groups:
      "Os grupos do portal são os tipos de permissão abaixo (nome e id). O SCIM vincula a eles os grupos do provedor pelo nome (sem diferença entre maiúsculas e minúsculas); ele não cria, não renomeia e não exclui grupos.",
    unknownGroups:
      "Um grupo com outro nome não é criado: a busca por ele (filter displayName eq) volta vazia, e o pedido de criação (POST /Groups) recebe 403; excluir um grupo também recebe 403; ler ou alterar um id que não é de um grupo, 404.",
    membership: (defaultGroup: string) =>
      `Um usuário novo recebe ${defaultGroup}. Cada usuário está em um grupo só: incluí-lo em um grupo dá esse tipo; tirá-lo do grupo do seu tipo o deixa sem tipo (CONTATE SEU ADMIN). SYSTEM ADMIN, USER ADMIN e USER PERMISS não são do SCIM: nem listados nem alterados.`,
    ssoOn:
      "Este portal usa login único (SSO): os usuários criados pelo SCIM entram só pelo SSO e não recebem e-mail com senha temporária.",
    ssoOff:
      "Este portal não usa login único (SSO): cada usuário criado pelo SCIM recebe por e-mail uma senha temporária, como na administração de usuários. Com SSO ativo, entram só pelo SSO e não recebem esse e-mail.",
    deactivation:
      "Desativar (active false) tira o tipo do usuário na hora e encerra suas sessões e tokens de API; reativar devolve o tipo que ele tinha.",
    okta: "Okta",
    oktaSteps: (base: string, groups: string) => [
      "No aplicativo do portal, aba General: habilite o provisionamento por SCIM.",
      `Aba Provisioning, Integration: SCIM connector base URL ${base}; Unique identifier field for users: userName; Supported provisioning actions: Push New Users, Push Profile Updates e Push Groups; Authentication Mode: HTTP Header, com o token SCIM. Test Connector Configuration.`,
      "Provisioning, To App: habilite Create Users, Update User Attributes e Deactivate Users.",
      `Push Groups: para cada grupo do Okta, use Link Group e escolha um grupo existente do portal (${groups}). Não use Create Group: o portal recusa.`,
    ],
    entra: "Microsoft Entra ID",
    entraSteps: (base: string, groups: string) => [
      "Aplicativo empresarial do portal, Provisionamento: modo Automático.",
      `Credenciais de administrador: URL do locatário (Tenant URL) ${base}; Token secreto: o token SCIM. Testar conexão.`,
      'Mapeamentos de usuários: userPrincipalName (ou mail) para userName, displayName para displayName, Switch([IsSoftDeleted], , "False", "True", "True", "False") para active. Remova os demais (externalId, title, addresses, phoneNumbers, preferredLanguage, a extensão enterprise): nas alterações (PATCH) o portal os recusa (400 invalidPath).',
      `Usuários e grupos: atribua ao aplicativo grupos do Entra ID com exatamente os nomes dos grupos do portal (${groups}); o Entra ID encontra cada um pelo displayName e o vincula.`,
      "Inicie o provisionamento e confira o log de provisionamento.",
    ],
  },

  operations: "Cada operação com seus parâmetros, respostas e exemplos; o documento OpenAPI está em",
};
