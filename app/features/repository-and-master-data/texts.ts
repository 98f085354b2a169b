/**
 * User-visible texts of the master data screens (spec 000 §2, §3: tabs, column labels, filters): the spec's
 * verbatim, the rest marked "ours" (docs/decisions.md). Re-exported by app/messages.ts; defined only here (a module
 * of its own, so pages without them do not download them).
 */
export const masterDataTexts = {
  // Master-data tabs (spec 000 §2)
  masterDataTabs: {
    product: "Product",
    channel: "Channel",
    planning: "Planning",
    channelNok: "Channel NOK",
    quantity: "Quantity",
    quantityNok: "Quantity NOK",
    spend: "Spend",
    spendNok: "Spend NOK",
  },
  // ours: master-data screens. The column labels of the fixed tables (spec 000 §3 gives the field names; the
  // field name stays as each header's tooltip); the catalogue's own labels for the dropdown's collections.
  masterDataFields: {
    sku: "SKU",
    material_description: "Descrição do material",
    marca: "Brand",
    category_sku: "Category",
    categoria_principal_sku: "Major Category",
    sub_categoria_sku: "Subcategoria",
    hero: "Hero",
    abcd: "ABCD",
    plc_local: "PLC Local",
    plc_global: "PLC Global",
    data_validade_sku: "Global Forecast End Date", // spec 000 §3
    urlPath: "Arquivo",
    cnpj: "CNPJ",
    description: "Descrição",
    channel_siop: "Canal SIOP",
    creationDate: "Data",
    Error: "Erro",
    _lineNumber: "Linha",
    timeStamp: "Data",
    channel: "Channel",
    yearMonthDay: "Versão",
  },
  masterDataPlanningTitle: "Planejamento",
  masterDataFileFilter: "Arquivo (urlPath)",
  masterDataFilter: "Filtrar",
  masterDataClearFilter: "Limpar filtro",
  masterDataFilteredBy: (file: string) => `Somente as linhas do arquivo ${file}`,
  masterDataFilterByFile: (file: string) => `Somente as linhas de ${file}`,
  masterDataCollectionLabel: "Coleção",
  masterDataBaseLegend: "Base",
  masterDataApply: "OK",
  // ours: the Excel round trip of the master-data lists (docs/decisions.md "Uploads and jobs")
  masterDataExcelReadOnly:
    "Esta base só é exportada: as linhas descartadas (NOK) não são alteradas por Excel; corrija o arquivo de origem e envie-o de novo em Captura.",
  masterDataExcelNotEditable: "Esta base não aceita alterações por Excel.",
  masterDataExcelLockedColumn: (column: string) => `a coluna ${column} não é alterada por Excel`,
  masterDataRowLabel: (...parts: string[]) => parts.filter((p) => p !== "").join(" · "),
} as const;
