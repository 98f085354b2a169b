/**
 * User-visible texts of the notices: the in-portal list, the header link, the user's own settings page and the notice
 * e-mails. All ours (the spec has no wording for them). Re-exported by app/messages.ts; defined only here.
 */
import { noticeDeliveryTexts } from "~/platform/notices/texts";
import { noticeHeaderTexts } from "./header-texts";

export const noticeTexts = {
  // Header (header-texts.ts)
  ...noticeHeaderTexts,

  // /user/notices
  listTitle: "Avisos",
  listIntro: "Os avisos do portal para você, do mais recente ao mais antigo.",
  empty: "Você não tem avisos.",
  unreadSummary: (n: number) =>
    n === 0 ? "Nenhum aviso não lido." : n === 1 ? "1 aviso não lido." : `${n} avisos não lidos.`,
  markAllRead: "Marcar todas como lidas",
  markedAllRead: (n: number) =>
    n === 0
      ? "Não havia avisos não lidos."
      : n === 1
        ? "1 aviso marcado como lido."
        : `${n} avisos marcados como lidos.`,
  open: "Abrir",
  markRead: "Marcar como lido",
  unreadBadge: "Não lido",
  receivedAt: "Recebido em",
  previousPage: "Anterior",
  nextPage: "Próxima",
  pageOf: (page: number, count: number) => `Página ${page} de ${count}`,
  pagination: "Paginação dos avisos",
  noticeNotFound: "Aviso não encontrado.",
  invalidRequest: "Pedido inválido. Recarregue a página e tente novamente.",

  // /user/settings
  settingsTitle: "Preferências",
  settingsIntro: "Escolha como o portal avisa você.",
  noticesSection: "Avisos",
  emailNotices: "Receber avisos por e-mail",
  emailNoticesHelp: "Desligado, os avisos continuam na sua lista de avisos do portal, mas nenhum e-mail é enviado.",
  jobSuccessNotices: "Avisar também quando um envio terminar sem erros",
  jobSuccessNoticesHelp:
    "Você sempre é avisado quando um envio seu é recusado, tem linhas recusadas ou falha. Ligado, também quando termina sem erros.",
  onCallFailures: "Receber avisos de todas as falhas (plantão)",
  onCallFailuresHelp:
    "Para administradores de plantão: um aviso para cada envio de qualquer usuário que for recusado, tiver linhas recusadas ou falhar.",
  onCallNotAllowed: "Somente administradores do sistema podem receber os avisos de todas as falhas.",
  save: "Salvar preferências",
  saved: "Preferências salvas.",
  invalidSettings: "Não foi possível ler as preferências enviadas. Recarregue a página e tente novamente.",
  settingsLink: "Ver meus avisos",

  // Job notices and the notice e-mail: what the platform tells people (app/platform/notices/texts.ts)
  ...noticeDeliveryTexts,
} as const;
