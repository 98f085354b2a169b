/** Texts the host answers with before or around the app: service unavailable, malformed requests. */
export const deployTexts = {
  unavailableTitle: "Serviço indisponível",
  unavailable: "O portal não conseguiu acessar o banco de dados agora. Nada foi alterado; tente novamente em alguns instantes.",
  headersTooLargeTitle: "Cabeçalhos grandes demais",
  headersTooLarge: "O pedido trouxe cabeçalhos (por exemplo, cookies) grandes demais. Apague os cookies deste site e tente novamente.",
  malformedRequest: "O pedido não pôde ser lido.",
} as const;
