/**
 * User-visible texts of the SKU quantity planning, report filter and report preview (spec 001): the spec's verbatim, the rest marked "ours"
 * (docs/decisions.md). Re-exported by app/messages.ts; defined only here.
 */
export const planningTexts = {
  // Spec 001 §2, §5, §8 (verbatim)
  stepSelect: "Select",
  stepEdit: "Edit",
  period: "Period",
  from: "From",
  to: "To",
  sku: "SKU",
  channel: "Channel",
  generateReport: "Generate report",
  reset: "Reset",
  // "Report generated successfully.", "No data found", "Editing saved successfully", "Close" and "Number is not
  // valid" are shared with the report screens: uiTexts (app/shared/ui/texts.ts) reportGenerated, noDataFound,
  // editingSaved, close, numberNotValid.
  increase: "Increase",
  decrease: "Decrease",
  columns: {
    date: "Date",
    sku: "SKU",
    description: "Description",
    quantity: "Quantity",
    brand: "Brand",
    channel: "Channel",
    hero: "Hero",
    abcd: "ABCD",
    plcLocal: "PLC Local",
    category: "Category",
    majorCategory: "Major Category",
  },
  attributes: {
    brand: "Brand",
    category: "Category",
    hero: "Hero",
    majorCategory: "Major Category",
    abcd: "ABCD",
    subCategory: "Subcategoria",
    plcLocal: "PLC Local",
  },

  // ours: titles, steps and the filter form
  planningTitle: "Planejamento",
  reportFilterTitle: "Relatório de quantidades",
  reportPreviewTitle: "Relatório de quantidades",
  filtering: "Filtering",
  stepsLabel: "Etapas",
  skuModeSpecific: "SKUs específicos",
  skuModeAttributes: "Atributos do SKU",
  skuSearchLabel: "Buscar SKU pelo código",
  skuSearchHint: (limit: number) => `Digite o início do código; a lista mostra até ${limit} SKUs do catálogo.`,
  skuSearchButton: "Buscar",
  skuSelected: (n: number) => (n === 1 ? "1 SKU escolhido" : `${n} SKUs escolhidos`),
  skuNoMatch: "Nenhum SKU do catálogo começa com esse código.",
  emptyValue: "(vazio)",
  allChannels: "Todos os canais",
  channelRequired: "Escolha pelo menos um canal.",
  periodAll: "Todo o período",
  periodText: (from: string, to: string) => `${from} – ${to}`,
  periodLabel: "Período",
  changeFilter: "Alterar filtro",
  loading: "Carregando…",
  columnMonth: "Competência",
  /** ours: the sum of the filter's quantities. */
  totalQuantity: "Quantidade total do filtro",
  itemCount: (n: number) => `${n.toLocaleString("pt-BR")} ${n === 1 ? "item" : "itens"}`,

  // ours: filter validation
  dateInvalid: (min: string, max: string) => `Informe uma data entre ${min} e ${max}.`,
  dateOrder: "A data final (To) não pode ser anterior à inicial (From).",
  unknownChannel: (value: string) => `Canal desconhecido: ${value}.`,
  unknownValue: (label: string, value: string) => `Valor desconhecido em ${label}: ${value || "(vazio)"}.`,
  unknownSku: (sku: string) => `SKU fora do catálogo: ${sku}.`,
  tooManyValues: (label: string, max: number) => `Escolha no máximo ${max} valores em ${label}.`,
  filterInvalid: "Corrija o filtro para gerar o relatório.",

  // ours: the edit screen
  groupEdit: "Edição em grupo",
  groupEditTitle: "Edição em grupo",
  groupEditPrompt: "Aplica uma porcentagem a todas as quantidades do filtro, em todas as páginas.",
  percentLabel: "Porcentagem (%)",
  apply: "Aplicar",
  cancel: "Cancelar",
  confirm: "Confirmar",
  save: "Salvar",
  saving: "Salvando…",
  decreaseTooLarge: "Para diminuir, use no máximo 100%.",
  batchMode: (label: string, total: number) =>
    `Modo lote: ${label} em ${total.toLocaleString("pt-BR")} ${total === 1 ? "linha" : "linhas"} do filtro. As quantidades mostradas já estão multiplicadas; salve para aplicar.`,
  individualMode: (n: number) =>
    n === 1 ? "1 quantidade alterada (modo individual)." : `${n} quantidades alteradas (modo individual).`,
  factorLabel: (direction: "increase" | "decrease", percent: number, factor: string) =>
    `${direction === "increase" ? "+" : "−"}${percent.toLocaleString("pt-BR")}% (×${factor})`,
  confirmTitle: "Salvar alterações?",
  confirmIndividual: (n: number) =>
    n === 1 ? "A quantidade alterada será salva." : `As ${n} quantidades alteradas serão salvas.`,
  confirmBatch: (label: string, total: number) =>
    `Todas as ${total.toLocaleString("pt-BR")} linhas do filtro, em todas as páginas, serão multiplicadas: ${label}. Resultados arredondados para o inteiro mais próximo.`,
  nothingChanged: "Nenhuma quantidade foi alterada.",
  discardTitle: "Descartar alterações?",
  discardPrompt: "As quantidades alteradas nesta página ainda não foram salvas.",
  discard: "Descartar",
  keepEditing: "Continuar editando",
  quantityOf: (sku: string, channel: string, month: string) => `Quantidade de ${sku} · ${channel} · ${month}`,
  rowLabel: (sku: string, channel: string, month: string) => `${sku} · ${channel} · ${month}`,
  rowError: (row: string, message: string) => `${row}: ${message}`,
  savedRows: (n: number) => (n === 1 ? "1 quantidade salva." : `${n.toLocaleString("pt-BR")} quantidades salvas.`),
  savedBatch: (label: string, n: number) =>
    `${label} aplicado a ${n.toLocaleString("pt-BR")} ${n === 1 ? "linha" : "linhas"}.`,
  conflictTitle: "Linhas não salvas",
  conflictIntro: "Estas linhas foram alteradas por outra pessoa depois que a página foi carregada e não foram salvas:",
  conflictRow: (row: string, current: string) => `${row} (quantidade atual: ${current})`,
  conflictHint: "Recarregue a página para ver os valores atuais e edite de novo.",
  rowsOutsideFilter: "Algumas linhas enviadas não fazem parte deste filtro. Nada foi salvo; recarregue a página.",
  batchStale:
    "As quantidades deste filtro foram alteradas por outra pessoa depois que a página foi carregada. Nada foi salvo; recarregue a página e aplique o lote de novo.",
  readOnlyNote: "Somente leitura: seu perfil pode consultar este relatório, mas não alterar quantidades.",
  tableCaption: "Quantidades planejadas",

  // ours: history
  historyColumn: "Histórico",
  threadColumn: "Conversa",
  historyThread: "Comentários desta linha",
  threadOf: (row: string, n: number) => (n === 0 ? `Comentar ${row}` : `Comentários de ${row}: ${n}`),
  historyOf: (row: string) => `Histórico de ${row}`,
  historyTitle: "Histórico da linha",
  historyEmpty: "Nenhuma alteração registrada para esta linha.",
  historyWhen: "Quando",
  historyWho: "Quem",
  historyMode: "Modo",
  historyChange: "Alteração",
  historyUnitario: "unitario",
  historyLote: "lote",
  historyBatchChange: (label: string, rows: number) =>
    `${label} sobre ${rows.toLocaleString("pt-BR")} ${rows === 1 ? "linha" : "linhas"} (valor por linha não registrado)`,
  historyCurrent: (value: string) => `Quantidade atual: ${value}`,
  historyBatchRowChange: (label: string, old: string, value: string) => `${label}: ${old} → ${value}`,
  historyNotFound: "Esta linha não faz parte do filtro atual.",

  // ours: "Distribuir total" of a SKU in a channel (docs/decisions.md "Planning")
  spreadColumn: "Distribuir",
  spreadOf: (row: string) => `Distribuir o total de ${row}`,
  spreadTitle: "Distribuir total",
  spreadIntro: (months: number, sku: string, channel: string) =>
    `Informe o total de ${sku} em ${channel} nos ${months} meses do filtro e como distribuí-lo. Cada mês recebe unidades inteiras; a sobra vai para o último mês, e o total fica exato.`,
  spreadTotal: "Total (unidades)",
  spreadMode: "Como distribuir",
  spreadModes: {
    igual: "Igualmente",
    ano_anterior: "Como o mesmo mês do ano anterior",
    pesos: "Por pesos informados",
  } as Record<string, string>,
  spreadWeights: "Pesos (um por mês, separados por ;)",
  spreadWeightsHint: (months: string) => `Na ordem dos meses: ${months}. Exemplo: 1;1;2`,
  spreadPreview: "Ver a distribuição",
  spreadPreviewTitle: "Prévia",
  spreadMonth: "Mês",
  spreadCurrent: "Atual",
  spreadNew: "Distribuído",
  spreadConfirm: "Salvar a distribuição",
  spreadBack: "Voltar ao planejamento",
  spreadFellBack: (mode: string) => `Sem base para distribuir ${mode.toLowerCase()}: distribuído igualmente.`,
  // ours: a base that covers only some months (docs/decisions.md "Spreads that follow their base")
  spreadUnbased: (months: readonly string[]) =>
    `Sem base em ${[months.slice(0, -1).join(", "), months[months.length - 1]].filter(Boolean).join(" e ")}: ` +
    `distribuído igualmente ${months.length === 1 ? "nesse mês" : "nesses meses"}; os demais seguem a base.`,
  spreadSaved: (months: number) => `Total distribuído em ${months} meses.`,
  spreadHistory: "distribuído",
  spreadReadOnly: "Só quem edita o planejamento distribui totais.",
  spreadUnknownRow: "Linha não encontrada no filtro atual.",
  spreadTooManyMonths: (max: number) => `Escolha um período de até ${max} meses para distribuir.`,
  spreadTotalInvalid: "Informe o total como número inteiro de 0 a 1.000.000.000 (ex.: 1.200).",
  spreadWeightsInvalid: (months: number) =>
    `Informe ${months} pesos, números maiores ou iguais a zero, separados por ;.`,
  spreadChanged: "As quantidades mudaram desde a prévia: confira a nova prévia antes de salvar.",
} as const;
