import type { Unmatched } from "./matching";

/** Texts of the forecast preparers' screen and template (/ij/forecast_preparers); all ours. */

const count = (n: number, one: string, many: string) => `${n.toLocaleString("pt-BR")} ${n === 1 ? one : many}`;

export const preparersTexts = {
  title: "Responsáveis pela preparação do forecast",
  intro:
    "Os responsáveis pela preparação são os usuários do portal que preparam e enviam o forecast de um centro de custo. Só usuários com um perfil que edita o forecast (SYSTEM ADMIN ou USER GOLD) podem ser atribuídos.",
  link: "Responsáveis pela preparação",

  // Filter and list
  filterLegend: "Filtrar centros de custo",
  searchLabel: "Centro de custo",
  searchPlaceholder: "Código ou nome",
  withoutPreparerLabel: "Só centros de custo sem responsável",
  filterButton: "Filtrar",
  clearFilter: "Limpar filtro",
  tableCaption: "Centros de custo e seus responsáveis pela preparação",
  columnCostCenter: "Centro de custo",
  columnPreparers: "Responsáveis",
  columnAdd: "Adicionar responsável",
  none: "Sem responsável",
  notInForecast: "Este centro de custo não está mais no forecast: só é possível remover os responsáveis.",
  cannotEditNow: (type: string) => `perfil ${type || "ausente"}: não edita o forecast`,
  notUserNow: "não é mais usuário do portal",
  noCostCenters: "Nenhum centro de custo encontrado no forecast.",
  noMatch: "Nenhum centro de custo corresponde ao filtro.",
  shown: (from: number, to: number, total: number) =>
    `${from.toLocaleString("pt-BR")}–${to.toLocaleString("pt-BR")} de ${count(total, "centro de custo", "centros de custo")}`,
  previous: "Anterior",
  next: "Próxima",
  pageOf: (page: number, pages: number) => `Página ${page} de ${pages}`,
  pagerLabel: "Paginação",

  // Add and remove
  emailLabel: (cc: string) => `Nome ou e-mail do responsável por ${cc}`,
  emailPlaceholder: "Nome ou e-mail",
  addButton: "Adicionar",
  remove: "Remover",
  removeLink: (email: string) => `Remover ${email}`,
  removeTitle: "Remover responsável",
  removePrompt: (email: string, cc: string) => `Remover ${email} da preparação do forecast de ${cc}?`,
  removeOnlySubmitted: (cc: string, rf: string) =>
    `${cc} está Enviado no ${rf} e ficará sem responsável: se o revisor devolver o forecast, ninguém poderá corrigi-lo.`,
  removeConfirm: "Sim, remover responsável",
  // A name that several people match: each offered to pick
  choicesLabel: (cc: string) => `Escolha o responsável por ${cc}`,
  pickChoice: (name: string, email: string) => (name ? `Adicionar ${name} (${email})` : `Adicionar ${email}`),
  cancel: "Cancelar",

  // Suggestions from the FP&A responsibles
  suggestButton: "Sugerir pelos responsáveis FP&A",
  suggestTitle: "Sugestão pelos responsáveis FP&A",
  suggestIntro:
    "Cada responsável FP&A foi associado a um centro de custo do forecast (pelo nome completo ou, se não houver, pelo código antes de “ - ”) e a um usuário do portal pelo nome, sem diferenciar maiúsculas, acentos ou espaços, só quando exatamente um usuário tem esse nome.",
  suggestNone: "Nenhuma atribuição nova a propor.",
  suggestApply: (n: number) => `Atribuir ${count(n, "responsável proposto", "responsáveis propostos")}`,
  suggestAlready: (n: number) => `${count(n, "atribuição proposta já existe", "atribuições propostas já existem")}.`,
  suggestClose: "Fechar sugestão",
  proposalsCaption: "Atribuições propostas",
  unmatchedTitle: "Sem correspondência",
  unmatchedCaption: "Responsáveis FP&A sem correspondência",
  noResponsibles: "Não há responsáveis FP&A cadastrados.",
  columnUnit: "Unidade",
  columnFpaCostCenter: "Centro de custo (FP&A)",
  columnFpaPerson: "Responsável (FP&A)",
  columnUser: "Usuário",
  columnReason: "Motivo",
  reason: (u: Unmatched): string => {
    switch (u.reason.kind) {
      case "costCenterNotFound":
        return `Centro de custo “${u.costCenter}” não encontrado no forecast.`;
      case "costCenterAmbiguous":
        return `${u.reason.count} centros de custo do forecast têm o código de “${u.costCenter}”.`;
      case "noName":
        return "O registro FP&A não tem nome de responsável.";
      case "noUser":
        return `Nenhum usuário chamado “${u.userResponsible}”.`;
      case "manyUsers":
        return `${u.reason.count} usuários chamados “${u.userResponsible}”: atribua manualmente.`;
      case "cannotEdit":
        return `${u.reason.user} (${u.reason.type || "sem perfil"}) não tem um perfil que edita o forecast.`;
    }
  },

  // Template
  templateTitle: "Modelo (planilha)",
  templateDownload: "Baixar modelo com as atribuições atuais",
  templateUploadLabel: "Modelo preenchido (XLSX ou CSV com ;)",
  templateUploadButton: "Enviar modelo",
  templateHelp:
    "Uma linha por atribuição, com as colunas cost_center_concat e user_email. O envio só ADICIONA atribuições: linhas que já existem são mantidas, e uma atribuição que não está no arquivo NÃO é removida. Para remover, use “Remover” na lista.",
  sheetName: "Responsáveis",
  helpSheetName: "Instruções",
  helpLines: [
    "cost_center_concat: o centro de custo exatamente como no forecast (ex.: CC1001 - Marketing).",
    "user_email: o e-mail de um usuário do portal com perfil SYSTEM ADMIN ou USER GOLD.",
    "Cada linha atribui o usuário ao centro de custo. Linhas já existentes são mantidas.",
    "Atribuições que não estão no arquivo NÃO são removidas: a remoção é feita na tela.",
  ],

  // Answers
  ok: {
    added: (email: string, cc: string) => `${email} agora é responsável pela preparação de ${cc}.`,
    removed: (email: string, cc: string) => `${email} não é mais responsável pela preparação de ${cc}.`,
    summary: (assigned: number, present: number, refused: number) =>
      `${count(assigned, "atribuição nova", "atribuições novas")}, ${count(present, "já existente", "já existentes")}, ${count(refused, "recusada", "recusadas")}.`,
  },
  uploadDone: "Modelo processado",
  suggestDone: "Sugestão aplicada",
  refusedTitle: "Linhas recusadas",
  refusedCaption: "Linhas recusadas do modelo",
  columnLine: "Linha",
  columnEmail: "E-mail",
  refusedMore: (n: number) => `… e mais ${count(n, "linha recusada", "linhas recusadas")}.`,

  // Refusals (one rule for the screen, the suggestion and the template)
  refused: {
    invalidForm: "Não foi possível ler o formulário. Recarregue a página e tente de novo.",
    emailRequired: "Informe o e-mail do responsável.",
    userRequired: "Informe o nome ou o e-mail do responsável.",
    noneNamed: (name: string) =>
      `Nenhum usuário que pode preparar o forecast se chama “${name}”. Informe o nome completo ou o e-mail.`,
    severalNamed: (name: string, n: number) =>
      `${n.toLocaleString("pt-BR")} usuários que podem preparar o forecast correspondem a “${name}”: escolha um abaixo.`,
    invalidEmail: (value: string) => `“${value}” não é um e-mail válido.`,
    costCenterRequired: "Informe o centro de custo.",
    unknownCostCenter: (cc: string) => `Centro de custo “${cc}” não encontrado no forecast.`,
    ambiguousCode: (code: string) =>
      `O código “${code}” corresponde a mais de um centro de custo do forecast; informe o nome completo.`,
    notUser: (email: string) => `${email} não é usuário do portal.`,
    cannotEdit: (email: string, type: string) =>
      `${email} (${type || "sem perfil"}) não tem um perfil que edita o forecast: só SYSTEM ADMIN e USER GOLD podem ser responsáveis.`,
    alreadyAssigned: (email: string, cc: string) => `${email} já é responsável pela preparação de ${cc}.`,
    notAssigned: (email: string, cc: string) => `${email} não é (mais) responsável pela preparação de ${cc}.`,
    tooManyPairs: (max: number) => `A sugestão passa de ${max.toLocaleString("pt-BR")} atribuições.`,
  },
  fileErrors: {
    missing: "Escolha o modelo preenchido (XLSX ou CSV).",
    type: "Envie o modelo em XLSX ou CSV.",
    tooLarge: (mb: number) => `O arquivo passa de ${mb} MB.`,
    unreadable: "Não foi possível ler o arquivo. Envie o modelo em XLSX ou CSV separado por ponto e vírgula.",
    noHeader: "O arquivo não tem o cabeçalho do modelo: as colunas cost_center_concat e user_email.",
    tooManyRows: (max: number) => `O arquivo passa de ${max.toLocaleString("pt-BR")} linhas: nada foi atribuído.`,
    empty: "O arquivo não tem nenhuma linha de atribuição.",
  },
};
