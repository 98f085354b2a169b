import {
  CHANNEL,
  CHANNEL_NOK,
  type ChannelNokRow,
  type ChannelRow,
  type MasterDataCollectionRecord,
  type MasterDataField,
  PLANNING_SPEND,
  PLANNING_SPEND_NOK,
  PRODUCT_MASTER,
  PRODUCT_MASTER_NOK,
  type ProductMasterNokRow,
  type ProductMasterRow,
  type SpendNokRow,
  type SpendRow,
} from "~/models/master-data.server";
import { CHANNELS } from "~/models/planning.server";
import { cnpjFromBase, randomCnpj } from "./brazil";
import { addDays, monthStart, randomInstantBefore, type SeedContext, scaled, yyyymmdd } from "./context";
import type { Random } from "./random";
import {
  ABCD_WEIGHTS,
  BRANDS,
  COMPANY_SUFFIXES,
  PLC_GLOBAL,
  PLC_LOCAL_WEIGHTS,
  STORE_CHAIN_NAMES,
  STORE_CHAIN_PREFIXES,
  TAXONOMY,
  VARIANTS,
} from "./vocabulary";

const productFields: MasterDataField[] = [
  { sku: "SKU" },
  { material_description: "Descrição do material" },
  { marca: "Brand" },
  { category_sku: "Category" },
  { categoria_principal_sku: "Major Category" },
  { sub_categoria_sku: "Subcategoria" },
  { hero: "Hero" },
  { abcd: "ABCD" },
  { plc_local: "PLC Local" },
  { plc_global: "PLC Global" },
  { data_validade_sku: "Global Forecast End Date" },
  { urlPath: "Arquivo" },
];

/**
 * The master-data catalogue: which collections the repository screens list, with their columns. Three
 * subjects, each with its Ok base and its NOK base (`<ok>_nok`); the dashboards' OK x NOK chart is built
 * from this list.
 */
export const MASTER_DATA_CATALOGUE: readonly Omit<MasterDataCollectionRecord, "_id">[] = [
  { collection_name: PRODUCT_MASTER, label_name: "Product", collection_ok: 1, fields: productFields, order: 1 },
  {
    collection_name: PRODUCT_MASTER_NOK,
    label_name: "Product NOK",
    collection_ok: 0,
    fields: [
      { sku: "SKU" },
      { _lineNumber: "Linha" },
      { urlPath: "Arquivo" },
      { timeStamp: "Data" },
      { Error: "Erro" },
    ],
    order: 2,
  },
  {
    collection_name: CHANNEL,
    label_name: "Channel",
    collection_ok: 1,
    fields: [{ cnpj: "CNPJ" }, { description: "Descrição" }, { channel_siop: "Canal SIOP" }, { urlPath: "Arquivo" }],
    order: 3,
  },
  {
    collection_name: CHANNEL_NOK,
    label_name: "Channel NOK",
    collection_ok: 0,
    fields: [{ urlPath: "Arquivo" }, { _lineNumber: "Linha" }, { creationDate: "Data" }, { Error: "Erro" }],
    order: 4,
  },
  {
    collection_name: PLANNING_SPEND,
    label_name: "Spend",
    collection_ok: 1,
    fields: [{ channel: "Channel" }, { marca: "Brand" }, { yearMonthDay: "Versão" }, { urlPath: "Arquivo" }],
    order: 5,
  },
  {
    collection_name: PLANNING_SPEND_NOK,
    label_name: "Spend NOK",
    collection_ok: 0,
    fields: [
      { channel: "Channel" },
      { marca: "Brand" },
      { yearMonthDay: "Versão" },
      { _lineNumber: "Linha" },
      { urlPath: "Arquivo" },
      { timeStamp: "Data" },
      { Error: "Erro" },
    ],
    order: 6,
  },
];

export function masterDataCollections(ctx: SeedContext): MasterDataCollectionRecord[] {
  const random = ctx.random.fork("master_data_collections");
  return MASTER_DATA_CATALOGUE.map((r) => ({ _id: random.objectId(addDays(ctx.reference, -730)), ...r }));
}

/** The paths of the import files the seeded rows "came from": one per month for the last year. */
function importPaths(ctx: SeedContext, folder: string, prefix: string, ext: string): { path: string; at: Date }[] {
  return Array.from({ length: 12 }, (_, i) => {
    const at = addDays(monthStart(ctx.reference, -11 + i), 4);
    return { path: `master-data/${folder}/${prefix}_${yyyymmdd(at)}.${ext}`, at };
  });
}

export function generateProducts(ctx: SeedContext): ProductMasterRow[] {
  const random = ctx.random.fork("product_master");
  const count = scaled(ctx, 10_000, 20);
  const paths = importPaths(ctx, "product", "PRODUCT_MASTER", "xlsx");
  const principals = TAXONOMY.map((t) => [t, t.weight] as const);
  const rows: ProductMasterRow[] = [];
  for (let i = 0; i < count; i++) {
    const principal = random.weighted(principals);
    const category = random.pick(principal.categories);
    const sub = random.pick(category.subs);
    const [variantPt, variantEn] = random.pick(VARIANTS);
    const size = random.pick(sub.sizes);
    const marca = random.pick(BRANDS);
    const brandWord = marca
      .toUpperCase()
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "");
    // Codes grow with i, and the random step keeps them unique while looking irregular.
    const sku = String(80_000_000 + i * 17 + random.int(0, 16));
    const hero = random.chance(0.18) ? "hero" : "non-hero";
    const plc = random.weighted(PLC_LOCAL_WEIGHTS);
    const source = random.pick(paths);
    const creationDate = randomInstantBefore(random, source.at, 30);
    rows.push({
      _id: random.objectId(creationDate),
      id: i + 1,
      sku,
      material_description: `${sub.pt} ${brandWord} ${variantPt} ${size}`,
      material_description_en: `${sub.en} ${brandWord} ${variantEn} ${size.replace(",", ".")}`,
      marca,
      category_sku: category.category,
      categoria_principal_sku: principal.principal,
      sub_categoria_sku: sub.sub,
      hero,
      skherou: `${sku}-${hero}`,
      abcd: random.weighted(ABCD_WEIGHTS),
      plc_local: plc,
      plc_localsku: plc,
      plc_global: plc.startsWith("6")
        ? "Discontinued"
        : plc.startsWith("5")
          ? "Phase Out"
          : random.pick(PLC_GLOBAL.slice(0, 2)),
      data_validade_sku: monthStart(ctx.reference, random.int(3, 36)),
      creationDate,
      urlPath: source.path,
      sourceFileId: null,
    });
  }
  return rows;
}

const PRODUCT_ERRORS: readonly ((r: Random) => string)[] = [
  () => "Campo obrigatório não informado: sku",
  (r) => `Categoria principal inválida: '${r.pick(["Perfumaria", "Maquiagem", "Cabelos", "N/A"])}'`,
  (r) => `Data de validade inválida: '${r.pick(["31/02/2026", "00/00/0000", "2026-13-01", "amanhã"])}'`,
  () => "SKU duplicado no arquivo",
  (r) => `Valor de ABCD inválido: '${r.pick(["E", "AA", "x", "1"])}'`,
  () => "Marca não cadastrada",
  (r) => `PLC local desconhecido: '${r.pick(["7-Archived", "Released", "3 Released"])}'`,
];

export function generateProductsNok(ctx: SeedContext): ProductMasterNokRow[] {
  const random = ctx.random.fork("product_master_nok");
  const paths = importPaths(ctx, "product", "PRODUCT_MASTER", "xlsx");
  return Array.from({ length: scaled(ctx, 600, 5) }, () => {
    const source = random.pick(paths);
    const timeStamp = new Date(source.at.getTime() + random.int(60, 3600) * 1000);
    const error = random.pick(PRODUCT_ERRORS)(random);
    return {
      _id: random.objectId(timeStamp),
      sku: error.includes("sku") ? "" : String(80_000_000 + random.int(0, 999_999)),
      _lineNumber: random.int(2, 12_000),
      urlPath: source.path,
      timeStamp,
      Error: error,
      sourceFileId: null,
    };
  });
}

export function generateChannels(ctx: SeedContext): ChannelRow[] {
  const random = ctx.random.fork("channel");
  const paths = importPaths(ctx, "channel", "CHANNEL", "csv");
  const seen = new Set<string>();
  return Array.from({ length: scaled(ctx, 800, 8) }, () => {
    let cnpj = randomCnpj(random);
    while (seen.has(cnpj)) cnpj = randomCnpj(random);
    seen.add(cnpj);
    const source = random.pick(paths);
    const prefix = random.pick(STORE_CHAIN_PREFIXES);
    const description = `${prefix} ${random.pick(STORE_CHAIN_NAMES)} ${random.pick(COMPANY_SUFFIXES)}`;
    const channel_siop =
      prefix === "Distribuidora" || prefix === "Atacadão"
        ? "WHOLESALES"
        : random.weighted([
            ["WHOLESALES", 3],
            ["ONLINE_PARTNERS", 2],
            ["FSS", 4],
            ["BRANDSITE", 1],
          ] as const);
    return {
      _id: random.objectId(source.at),
      cnpj,
      description,
      channel_siop,
      urlPath: source.path,
      sourceFileId: null,
    };
  });
}

const CHANNEL_ERRORS: readonly ((r: Random) => string)[] = [
  (r) => `CNPJ inválido: '${cnpjFromBase(r.digits(12)).slice(0, 13)}${r.int(0, 9)}' (dígito verificador)`,
  () => "Campo obrigatório não informado: description",
  (r) => `Canal SIOP desconhecido: '${r.pick(["VAREJO", "B2B", "MARKETPLACE", "wholesale"])}'`,
  () => "CNPJ duplicado no arquivo",
  () => "Quantidade de colunas diferente do cabeçalho",
];

export function generateChannelsNok(ctx: SeedContext): ChannelNokRow[] {
  const random = ctx.random.fork("channel_nok");
  const paths = importPaths(ctx, "channel", "CHANNEL", "csv");
  return Array.from({ length: scaled(ctx, 120, 3) }, () => {
    const source = random.pick(paths);
    const creationDate = new Date(source.at.getTime() + random.int(60, 3600) * 1000);
    return {
      _id: random.objectId(creationDate),
      urlPath: source.path,
      creationDate,
      Error: random.pick(CHANNEL_ERRORS)(random),
      _lineNumber: random.int(2, 900),
      sourceFileId: null,
    };
  });
}

/** Spend versions: one per week for the last year, YYYYMMDD. */
function spendVersions(ctx: SeedContext): string[] {
  return Array.from({ length: 52 }, (_, i) => yyyymmdd(addDays(ctx.reference, -7 * (52 - i))));
}

export function generateSpend(ctx: SeedContext): SpendRow[] {
  const random = ctx.random.fork("planning_spend");
  const versions = spendVersions(ctx);
  const combos: { channel: string; marca: string; yearMonthDay: string }[] = [];
  for (const yearMonthDay of versions)
    for (const channel of CHANNELS) for (const marca of BRANDS) combos.push({ channel, marca, yearMonthDay });
  return combos.slice(combos.length - Math.min(combos.length, scaled(ctx, 2_000, 8))).map((combo) => {
    const at = new Date(
      `${combo.yearMonthDay.slice(0, 4)}-${combo.yearMonthDay.slice(4, 6)}-${combo.yearMonthDay.slice(6)}T09:00:00Z`,
    );
    return {
      _id: random.objectId(at),
      ...combo,
      urlPath: `master-data/spend/SPEND_${combo.yearMonthDay}.csv`,
      sourceFileId: null,
    };
  });
}

const SPEND_ERRORS: readonly ((r: Random) => string)[] = [
  (r) => `Canal inválido: '${r.pick(["VAREJO", "Online", "LOJA", ""])}'`,
  () => "Marca não cadastrada",
  (r) => `Versão inválida: '${r.pick(["2026-1-5", "20261305", "abc"])}'`,
  () => "Linha duplicada para canal, marca e versão",
];

export function generateSpendNok(ctx: SeedContext): SpendNokRow[] {
  const random = ctx.random.fork("planning_spend_nok");
  const versions = spendVersions(ctx);
  return Array.from({ length: scaled(ctx, 150, 3) }, () => {
    const yearMonthDay = random.pick(versions);
    const timeStamp = new Date(
      `${yearMonthDay.slice(0, 4)}-${yearMonthDay.slice(4, 6)}-${yearMonthDay.slice(6)}T09:05:00Z`,
    );
    return {
      _id: random.objectId(timeStamp),
      channel: random.chance(0.7) ? random.pick(CHANNELS) : random.pick(["VAREJO", "LOJA", ""]),
      marca: random.chance(0.8) ? random.pick(BRANDS) : random.pick(["Marca X", "Teste", ""]),
      yearMonthDay,
      _lineNumber: random.int(2, 400),
      urlPath: `master-data/spend/SPEND_${yearMonthDay}.csv`,
      timeStamp,
      Error: random.pick(SPEND_ERRORS)(random),
      sourceFileId: null,
    };
  });
}
