/**
 * User-visible texts of the Explorer search (spec 001): the spec's verbatim, the rest marked "ours"
 * (docs/decisions.md). Re-exported by app/messages.ts; defined only here. (The first explorer labels — Search,
 * Frase Exata, "Sorry, no results found.", the box and the columns — are in app/messages.ts.)
 */
export const explorerTexts = {
  // ours: facets
  facetsTitle: "Filtrar resultados",
  facetLabels: { source: "Origem", category: "Categoria", year: "Ano" },
  facetValue: (value: string, count: number) => `${value} (${count.toLocaleString("pt-BR")})`,
  removeFacet: (label: string, value: string) => `Remover filtro ${label}: ${value}`,
  clearFacets: "Limpar filtros",
  // ours: what was not searched
  wordsDropped: (max: number, words: string[]) =>
    `A busca usa no máximo ${max} palavras; ${words.length === 1 ? "esta foi ignorada" : `estas ${words.length} foram ignoradas`}: ${words.join(" ")}.`,
  textCut: (max: number) => `A busca foi cortada em ${max} caracteres.`,
  commonWordsIgnored: (words: string[]) =>
    words.length === 1
      ? `A palavra "${words[0]}" é muito comum e não conta na busca.`
      : `As palavras ${words.map((w) => `"${w}"`).join(", ")} são muito comuns e não contam na busca.`,
  prefixNote: (prefix: string) => `Também foram buscadas palavras que começam com "${prefix}".`,
  // ours: the document page
  openDocument: (title: string) => `Abrir ${title}`,
  backToResults: "Voltar aos resultados",
  backToExplorer: "Voltar ao Explorer",
  documentNotFound: "Documento não encontrado.",
  documentMeta: "Dados do documento",
  // ours: the file of an uploaded document
  documentFile: "Arquivo",
  downloadFile: "Baixar arquivo original",
  downloadFileOf: (name: string) => `Baixar o arquivo original ${name}`,
  rankedNote: "Ordenado por relevância.",
} as const;
