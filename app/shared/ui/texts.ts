/**
 * The shared components' and the shell's own texts (ours, apart from the list controls): menus, dialogs, notices,
 * the data table's paging and the error pages. They live here so that app/shared needs nothing above it;
 * `~/messages` (the one entrance for every text) gives them to the rest of the portal under the same names.
 */
export const uiTexts = {
  // ours: the shell's note when the portal's "today" is pinned (PORTAL_TODAY: the demo, tests)
  pinnedToday: (day: string) => `Data fixada: para o portal, hoje é ${day}.`,
  // The data table's paging
  previous: "Previous",
  next: "Next",
  itemsPerPage: "Items per page",
  // Dialogs, and the spec's texts several screens share (saving, the saved notice, pinning a column, the direction of
  // a change)
  close: "Close",
  confirm: "Confirmar",
  cancel: "Cancelar",
  savingData: "Salvando Dados...",
  saved: "Salvo com sucesso!",
  pinColumn: "Fixar coluna",
  unpinColumn: "Desfixar coluna",
  increase: "Aumentar",
  decrease: "Diminuir",
  noDataFound: "No data found",
  reportGenerated: "Report generated successfully.",
  editingSaved: "Editing saved successfully",
  numberNotValid: "Number is not valid",
  // Error pages
  forbiddenTitle: "Acesso negado",
  forbidden: "Você não tem permissão para acessar esta página.",
  notFoundTitle: "Página não encontrada",
  notFound: "O endereço que você procurou não existe.",
  serverErrorTitle: "Erro inesperado",
  serverError: "Algo deu errado do nosso lado. Tente novamente em instantes.",
  backHome: "Voltar ao início",
  unavailableTitle: "Serviço indisponível",
  unavailable:
    "O portal não conseguiu acessar o banco de dados agora. Nada foi alterado; tente novamente em alguns instantes.",
  // The shell: notices, navigation, menus
  closeNotice: "Fechar aviso",
  notifications: "Notificações",
  mainNavigation: "Navegação principal",
  openMenu: "Menu",
  closeMenu: "Fechar menu",
  userMenu: "Menu do usuário",
  skipToContent: "Ir para o conteúdo",
  // the loading overlay the root shows while a dashboard page loads (any page may lead to one)
  dashboardLoading: "Carregando painel…",
} as const;
