import type { AuditEvent, AuditObjectKind, AuditOutcome } from "~/models/audit.fields";
import type { CycleAction } from "~/models/forecast-cycle.fields";

/**
 * User-visible texts of the audit trail screen (/user/audit; all ours). Re-exported by app/messages.ts;
 * defined only here.
 */

const EVENT_LABELS: Record<AuditEvent, string> = {
  signIn: "Login",
  signOut: "Logout",
  sessionExpired: "Sessão expirada",
  firstAccess: "Primeiro acesso",
  passwordSet: "Senha definida",
  passwordResetRequested: "Redefinição de senha solicitada",
  passwordReset: "Senha redefinida",
  userCreated: "Usuário criado",
  userDuplicated: "Usuário duplicado",
  userDeleted: "Usuário excluído",
  userChanged: "Usuário alterado",
  configChanged: "Configuração alterada",
  accessRefused: "Acesso negado",
  uploadRefused: "Envio recusado",
  dataImported: "Dados carregados",
  dataExported: "Dados exportados",
  dataEdited: "Dados editados",
  decision: "Decisão",
  commentAdded: "Comentário em célula",
  commentResolved: "Conversa resolvida ou reaberta",
  apiCall: "Chamada à API",
  tokenCreated: "Token criado",
  tokenRevoked: "Token revogado",
  viewDeleted: "Visão excluída",
  mailRead: "E-mail aberto no portal",
  auditExported: "Auditoria exportada",
  auditPurged: "Auditoria: dias antigos removidos",
};

const OUTCOME_LABELS: Record<AuditOutcome, string> = {
  ok: "Sucesso",
  refused: "Recusado",
  failed: "Falhou",
};

const OBJECT_LABELS: Record<AuditObjectKind, string> = {
  user: "Usuário",
  screen: "Tela",
  dataset: "Base de dados",
  file: "Arquivo",
  costCentre: "Centro de custo",
  configuration: "Configuração",
  session: "Sessão",
  audit: "Auditoria",
  token: "Token",
  cell: "Célula",
};

/** A forecast cycle decision's action, as the list names it. */
const ACTION_LABELS: Record<CycleAction, string> = {
  submit: "Enviou",
  withdraw: "Retirou o envio",
  approve: "Aprovou",
  return: "Devolveu",
  reopen: "Reabriu",
};

/** The details an entry commonly carries, named; any other shows its key. */
const DETAIL_LABELS: Record<string, string> = {
  rows: "Linhas",
  link: "Histórico das células",
  rf: "RF",
  cost_center_concat: "Centro de custo",
  action: "Ação",
  via: "Por meio de",
  state: "Estado",
  comment: "Comentário",
  fileName: "Arquivo",
};

export const auditTexts = {
  title: "Auditoria",
  menu: "Auditoria",
  intro:
    "Registro de acessos, administração, recusas e movimentação de dados. As entradas não podem ser alteradas; a integridade é verificada pelo comando audit:verify.",
  eventLabels: EVENT_LABELS,
  outcomeLabels: OUTCOME_LABELS,
  objectLabels: OBJECT_LABELS,
  actionLabels: ACTION_LABELS,
  detailLabels: DETAIL_LABELS,
  detailOpen: "Abrir",
  eventLabel: (event: string) => (EVENT_LABELS as Record<string, string>)[event] ?? event,
  outcomeLabel: (outcome: string) => (OUTCOME_LABELS as Record<string, string>)[outcome] ?? outcome,
  objectLabel: (kind: string) => (OBJECT_LABELS as Record<string, string>)[kind] ?? kind,

  // Filters
  filtersLegend: "Filtros",
  from: "De",
  to: "Até",
  user: "Usuário (e-mail)",
  event: "Tipo de evento",
  dataset: "Base de dados",
  outcome: "Resultado",
  object: "Sobre (centro de custo, arquivo, usuário)",
  action: "Ação do ciclo do forecast",
  filterByObject: (object: string) => `Filtrar por ${object}`,
  any: "Todos",
  filter: "Filtrar",
  clear: "Limpar filtros",
  invalidFilters:
    "Alguns filtros são inválidos e foram ignorados: confira as datas (AAAA-MM-DD) e os valores escolhidos.",
  invalidPeriod: "A data inicial deve ser anterior ou igual à data final.",

  // List
  columnWhen: "Quando",
  columnWho: "Quem",
  columnType: "Tipo do usuário",
  columnFrom: "Origem (IP)",
  columnEvent: "Evento",
  columnObject: "Sobre",
  columnOutcome: "Resultado",
  columnDetail: "Detalhe",
  open: "Ver",
  openEntry: (day: string, seq: number) => `Ver a entrada ${seq} de ${day}`,
  empty: "Nenhuma entrada encontrada para estes filtros.",
  newer: "← Mais recentes",
  older: "Mais antigas →",
  first: "Primeira página",
  pageNote: (count: number) =>
    `${count} ${count === 1 ? "entrada" : "entradas"} nesta página, das mais recentes às mais antigas.`,
  nobody: "(não identificado)",
  none: "—",

  // Detail
  detailTitle: (day: string, seq: number) => `Entrada ${seq} de ${day} (UTC)`,
  detailNotFound: "Entrada não encontrada (pode ter sido removida pela retenção).",
  detailClose: "Fechar",
  fieldPosition: "Posição no registro",
  fieldAt: "Data e hora",
  fieldActor: "Usuário",
  fieldActorType: "Tipo do usuário no momento",
  fieldIp: "Origem (IP)",
  fieldEvent: "Evento",
  fieldObject: "Sobre",
  fieldDataset: "Base de dados",
  fieldOutcome: "Resultado",
  fieldDetails: "Detalhes",
  fieldPrev: "Hash da entrada anterior",
  fieldHash: "Hash desta entrada",

  // Export
  exportCsv: "Exportar CSV",
  exportXlsx: "Exportar XLSX",
  exportNote: (max: string) =>
    `A exportação traz as entradas dos filtros aplicados (até ${max}) e também é registrada na auditoria.`,
  exportSheet: "Auditoria",
  exportBadFormat: "Formato de exportação inválido: escolha CSV ou XLSX.",
  exportFileName: (stamp: string, ext: string) => `auditoria_${stamp}.${ext}`,
} as const;
