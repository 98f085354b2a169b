/**
 * User-visible texts of subscriptions: the subscribe forms, /user/subscriptions and the e-mails. All ours
 * (the spec has no wording for them). Re-exported by app/messages.ts; defined only here.
 */
export const subscriptionTexts = {
  // The forms on the report list, the statements page and a dashboard
  subscribe: "Assinar",
  unsubscribe: "Cancelar assinatura",
  subscribeReports: (origin: string) => `Assinar relatórios (${origin})`,
  subscribeStatements: (unit: string) => `Assinar demonstrativos da unidade ${unit}`,
  subscribeDashboard: "Assinar este painel (e-mail semanal)",
  subscribedHint: "Você recebe um e-mail quando houver novidade.",
  mySubscriptions: "Minhas assinaturas",

  // /user/subscriptions
  pageTitle: "Assinaturas",
  pageIntro:
    "Receba por e-mail os novos relatórios de uma origem, os demonstrativos de uma unidade de negócio ou, toda semana, os números de um painel.",
  empty: "Você não tem assinaturas.",
  columnWhat: "Assinatura",
  columnSince: "Desde",
  columnActions: "Ações",
  open: "Abrir",
  logTitle: "Últimos envios",
  logEmpty: "Nenhum envio ainda.",
  columnWhen: "Quando",
  columnStatus: "Situação",
  columnDetail: "Detalhe",
  status: { pending: "Na fila", sent: "Enviado", skipped: "Não enviado", failed: "Falhou" } as Record<string, string>,
  skipReason: {
    rights: "Você não tem mais acesso a este conteúdo.",
    notFound: "O conteúdo não existe mais.",
    unsubscribed: "A assinatura foi cancelada.",
    provider: "Este painel não pode ser enviado por e-mail.",
  } as Record<string, string>,
  retrying: "Nova tentativa em breve.",
  whatReports: (origin: string) => `Relatórios da origem ${origin}`,
  whatStatements: (unit: string) => `Demonstrativos financeiros da unidade ${unit}`,
  whatDashboard: (label: string) => `Painel ${label} (semanal)`,
  originAutomatico: "automático",
  originManual: "manual",

  // Action answers
  subscribed: "Assinatura feita.",
  unsubscribed: "Assinatura cancelada.",
  notSubscribed: "Você não tinha esta assinatura.",
  notAllowed: "Você não tem acesso a este conteúdo, por isso não pode assiná-lo.",
  tooMany: "Você atingiu o limite de assinaturas. Cancele uma para assinar outra.",
  invalidRequest: "Pedido inválido. Recarregue a página e tente novamente.",

  // E-mails
  mailReportsSubject: (origin: string) => `Novos relatórios publicados (${origin})`,
  mailReportsBody: (count: number, names: readonly string[]) =>
    `${count === 1 ? "Foi publicado 1 relatório" : `Foram publicados ${count} relatórios`}:\n${names
      .map((n) => `- ${n}`)
      .join("\n")}${count > names.length ? `\n- … e mais ${count - names.length}` : ""}`,
  mailStatementSubject: (unit: string, period: string) => `Novo demonstrativo financeiro: unidade ${unit}, ${period}`,
  mailStatementBody: (unit: string, type: string, period: string) =>
    `O demonstrativo financeiro ${type} da unidade ${unit} de ${period} foi publicado.`,
  mailDashboardSubject: (label: string, week: string) => `Painel ${label}: números da semana ${week}`,
  mailDashboardBody: (label: string) => `Os números do painel ${label}, como você os vê no portal, estão no anexo.`,
  mailOpenLink: (url: string) => `Abrir no portal: ${url}`,
  mailFooter: (url: string) => `Você recebe este e-mail porque assinou este conteúdo. Para cancelar: ${url}`,
  monthly: "mensal",
  annual: "anual",
  sheetChart: (n: number) => `Gráfico ${n}`,
  sheetUnavailable: "Gráfico não disponível",
} as const;
