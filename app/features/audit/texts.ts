import type { AuditDetailAction, AuditEvent, AuditObjectKind, AuditOutcome } from "~/models/audit.fields";

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

/** The action an entry's details name (a forecast cycle decision's, a retry, a preparer's change …), as the list names it. */
const ACTION_LABELS: Record<AuditDetailAction, string> = {
  submit: "Enviou",
  withdraw: "Retirou o envio",
  approve: "Aprovou",
  return: "Devolveu",
  reopen: "Reabriu",
  retry: "Nova tentativa",
  retryAll: "Nova tentativa de todos",
  preparersLoaded: "Preparadores carregados",
  preparerAdded: "Preparador adicionado",
  preparerRemoved: "Preparador removido",
  versionSaved: "Versão salva",
  versionDeleted: "Versão excluída",
};

/** pt-BR month abbreviations ("mar/27"). */
const MONTHS = ["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"] as const;

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
  user: "Usuário",
  cells: "Alteração",
  moreCells: "Alteração",
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
  /** An edited cell: "Conta 4101001 — Salários e Ordenados, mar/27: 10.000,00 → 12.500,00". */
  editedCell: (account: string, month: string, before: string, after: string) => {
    const [code, ...name] = account.split(" - ");
    const [year, number] = month.split("-");
    const monthText = `${MONTHS[Number(number) - 1] ?? number}/${year.slice(2)}`;
    return `Conta ${name.length > 0 ? `${code} — ${name.join(" - ")}` : account}, ${monthText}: ${before} → ${after}`;
  },
  moreCells: (count: number) => (count === 1 ? "e mais 1 célula" : `e mais ${count} células`),
  cellHistory: (account: string, month: string) => `Abrir o histórico da célula ${account}, ${month}`,
  eventLabel: (event: string) => (EVENT_LABELS as Record<string, string>)[event] ?? event,
  actionLabel: (action: string) => (ACTION_LABELS as Record<string, string>)[action] ?? action,
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
  openEntry: (n: number) => `Ver a entrada ${n}`,
  empty: "Nenhuma entrada encontrada para estes filtros.",
  newer: "← Mais recentes",
  older: "Mais antigas →",
  first: "Primeira página",
  pageNote: (count: number) =>
    `${count} ${count === 1 ? "entrada" : "entradas"} nesta página, das mais recentes às mais antigas.`,
  nobody: "(não identificado)",
  none: "—",

  // Detail
  detailTitle: (n: number) => `Entrada ${n}`,
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
  fieldDetailsData: "Detalhes (dados)",
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
  /** The export's moment column: the zone said once, in its header. */
  exportWhen: (zone: string) => `Quando (${zone})`,
} as const;
