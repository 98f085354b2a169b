/** Texts of saved views (all ours; docs/decisions.md "Saved views"). Re-exported by app/messages.ts; defined only here. */

import { saveFormTexts } from "./save-form-texts";

export const savedViewTexts = {
  ...saveFormTexts,
  title: "Minhas visões",
  intro:
    "Uma visão guarda com um nome o estado de uma tela como o endereço o tem: filtros, colunas, comparação, níveis abertos e página. A visão padrão de uma tela é a que o menu abre. O link de uma visão pode ser enviado a um colega: ele a vê com as próprias permissões.",
  settingsHint: "as telas com os seus filtros salvos.",
  saved: (name: string) => `Visão salva: ${name}.`,
  deleted: (name: string) => `Visão excluída: ${name}.`,
  defaultOn: (name: string) => `"${name}" é agora a visão padrão desta tela.`,
  defaultOff: (name: string) => `"${name}" deixou de ser a visão padrão.`,
  columns: { name: "Nome", screen: "Tela", link: "Link para compartilhar", isDefault: "Padrão", actions: "Ações" },
  open: "Abrir",
  makeDefault: "Tornar padrão",
  unsetDefault: "Deixar de ser padrão",
  remove: "Excluir",
  removeLabel: (name: string) => `Excluir a visão ${name}`,
  defaultLabel: (name: string) => `Tornar ${name} a visão padrão da tela`,
  unsetDefaultLabel: (name: string) => `Deixar ${name} de ser a visão padrão`,
  openLabel: (name: string) => `Abrir a visão ${name}`,
  linkLabel: (name: string) => `Link da visão ${name}`,
  yes: "Sim",
  empty: 'Nenhuma visão salva. Use "Salvar visão" nas telas de planejamento, forecast, RH, jobs e auditoria.',
  errors: {
    name: "Informe um nome de 1 a 60 caracteres.",
    taken: (name: string) => `Você já tem uma visão chamada "${name}".`,
    screen: "Esta tela não guarda visões.",
    param: (name: string) => `O valor de "${name}" no endereço desta tela não é válido: a visão não foi salva.`,
    queryLong: "O endereço desta tela é longo demais para uma visão.",
    noDefault: "Uma visão da revisão de um centro de custo não pode ser a padrão: a revisão não tem entrada no menu.",
    limit: (max: number) => `Limite de ${max} visões atingido: exclua uma antes de salvar outra.`,
    notFound: "Visão não encontrada.",
  },
  /** A screen of one record (a cost centre's review, a branch's HR data) with what its path names. */
  screenOf: (screen: string, parts: readonly string[]) => `${screen}: ${parts.join(" · ")}`,
  screens: {
    planning: "Planejamento (resultado)",
    forecastFilter: "Forecast (filtro)",
    review: "Forecast (revisão)",
    consolidated: "Forecast consolidado",
    hr: "Dados auxiliares de RH",
    processing: "Processamento",
    executed: "Jobs executados",
    audit: "Auditoria",
  },
};
