import type { FileRecord } from "~/models/files.server";
import { randomCnpj } from "./brazil";
import { addDays, randomInstantBefore, type SeedContext, scaled, yyyymmdd } from "./context";
import type { Random } from "./random";
import { indicatorTable, renderByExtension, type SeedObjects } from "./stored-objects";

type FileState = "waiting" | "running" | "completed" | "failed";
/** The queue as a moment catches it, at any scale: a few files waiting or being processed; the rest have ended. */
const FIRST_STATES: readonly FileState[] = [
  "waiting",
  "running",
  "completed",
  "failed",
  "waiting",
  "running",
  "waiting",
];
const ENDED_WEIGHTS: readonly (readonly [FileState, number])[] = [
  ["completed", 70],
  ["failed", 18],
];

const NAME_PATTERNS: readonly ((r: Random, at: Date) => string)[] = [
  (_r, at) => `PRODUCT_MASTER_${yyyymmdd(at)}.xlsx`,
  (_r, at) => `CHANNEL_${yyyymmdd(at)}.csv`,
  (_r, at) => `SPEND_${yyyymmdd(at)}.csv`,
  (r) => `planejamento_quantidade_v${r.int(1, 9)}.xlsx`,
  (r, at) => `vendas_loja_${r.pick(["sp", "rj", "bh", "poa", "rec", "ssa", "cwb"])}_${yyyymmdd(at).slice(0, 6)}.csv`,
  (r) => `estoque_cd_${r.pick(["cajamar", "extrema", "recife", "serra"])}.txt`,
  (_r, at) => `notas_fiscais_${yyyymmdd(at).slice(0, 6)}.zip`,
  (r) => `Relatório de Sell-out ${r.pick(["Drogarias", "Perfumarias", "E-commerce"])} - semana ${r.int(1, 52)}.xlsx`,
  (_r, at) => `geracao_solar_usinas_${yyyymmdd(at)}.csv`,
  (r) => `metas_comerciais_${r.pick(["2025", "2026"])}_${r.pick(["revisado", "final", "v2"])}.xlsx`,
];

const FAILURES: readonly (readonly [number, (r: Random) => string])[] = [
  [1, (r) => `Erro de validação na linha ${r.int(2, 20_000)}: coluna 'sku' obrigatória não informada`],
  [1, () => "Cabeçalho inválido: colunas esperadas sku;channel;valor;dateRef"],
  [2, () => "Formato de arquivo não suportado: esperado CSV separado por ponto e vírgula"],
  [2, () => "Falha ao ler a planilha: arquivo protegido por senha"],
  [3, () => "Tempo limite de processamento excedido após 3 tentativas"],
  [4, () => "Arquivo vazio"],
];

/**
 * The lease of the seeded waiting and running jobs when they are to stay as seeded (tests and benches read those
 * states): it never expires in practice, so no worker claims them. With `liveJobs` (the demo) they carry none, and
 * the worker processes them as it would any upload: their files are channel CSVs it accepts.
 */
export const SEEDED_JOB_LEASE_UNTIL = new Date("2100-01-01T00:00:00Z");

/** A channel master-data file (the "channel" upload template, `;`-separated as Excel pt-BR writes it). */
function channelCsv(random: Random, rows: number): Buffer {
  const lines = ["cnpj;description;channel_siop"];
  for (let i = 0; i < rows; i++)
    lines.push(
      `${randomCnpj(random)};Loja ${random.int(1, 999)};${random.pick(["WHOLESALES", "ONLINE_PARTNERS", "FSS"])}`,
    );
  return Buffer.from(`${lines.join("\r\n")}\r\n`, "utf8");
}

/** pt-BR thousands separator without relying on the runtime's ICU data. */
export function formatInteger(n: number): string {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
}

/** Distinct contents per file-name pattern: the jobs of one pattern share a few renderings (a fast seed at scale 10). */
const CONTENT_VARIANTS = 4;

/**
 * Files / jobs in every state; the first four cover each state even at the smallest scale. Every record's
 * bytes exist in the store (a small table in the file's own format, spec 000 repository downloads).
 */
export function generateFiles(
  ctx: SeedContext,
  uploaders: readonly string[],
  objects: SeedObjects,
  options: { liveJobs?: boolean } = {},
): FileRecord[] {
  const random = ctx.random.fork("files");
  const count = scaled(ctx, 6_000, 8);
  const files: FileRecord[] = [];
  for (let i = 0; i < count; i++) {
    const state = i < FIRST_STATES.length ? FIRST_STATES[i] : random.weighted(ENDED_WEIGHTS);
    const recent = state === "waiting" || state === "running";
    const statusChangeDate = randomInstantBefore(random, ctx.reference, recent ? 2 : 365);
    const createdAt = new Date(statusChangeDate.getTime() - random.int(5, 3600) * 1000);
    const pattern = random.int(0, NAME_PATTERNS.length - 1);
    // A file still in the queue is one the worker accepts (a channel CSV), for when it is let through (liveJobs).
    const originalName = recent
      ? `CHANNEL_${yyyymmdd(createdAt)}.csv`
      : NAME_PATTERNS[pattern](random, addDays(createdAt, -random.int(0, 3)));
    const ext = fileExtension(originalName) || "bin";
    const variant = random.int(1, CONTENT_VARIANTS);
    const originalFile = recent
      ? objects.need(`seed/files/${random.uuid()}.csv`, async () => channelCsv(ctx.random.derive(`queue/${i}`), 5))
      : objects.need(
          `seed/files/${random.uuid()}.${ext}`,
          objects.shared(`files/${pattern}-${variant}.${ext}`, () =>
            renderByExtension(ext, {
              title: "Dados para importação",
              lines: [`Cliente: ${ctx.tenantId}`],
              tables: [indicatorTable(ctx.random.derive(`file/${pattern}-${variant}`), "Dados", 20)],
              createdAt: ctx.reference,
              author: "Journey Portal",
            }),
          ),
        );
    const manual = random.chance(0.75);
    let status = 0;
    let progress = 0;
    let message = "Aguardando processamento";
    let attempts = 0;
    let leaseUntil: Date | null = state === "waiting" && !options.liveJobs ? SEEDED_JOB_LEASE_UNTIL : null;
    if (state === "running") {
      progress = random.int(1, 99);
      // Left to a worker (liveJobs), a file some worker already held would be given up as interrupted: it waits.
      if (!options.liveJobs) {
        message = `Processando: ${progress}% concluído`;
        attempts = 1;
        leaseUntil = SEEDED_JOB_LEASE_UNTIL;
      } else progress = 0;
    } else if (state === "completed") {
      progress = 100;
      message = `Arquivo processado com sucesso. ${formatInteger(random.int(12, 250_000))} linhas importadas.`;
      attempts = 1;
    } else if (state === "failed") {
      const [code, text] = random.pick(FAILURES);
      status = code;
      progress = random.int(0, 95);
      message = text(random);
      attempts = code === 3 ? 3 : random.int(1, 2);
    }
    files.push({
      _id: random.objectId(createdAt),
      originalName,
      originalFile,
      bucket: ctx.bucket,
      user: random.pick(uploaders),
      clientName: ctx.tenantId,
      statusChangeDate,
      createdAt,
      status,
      progress,
      message,
      agent: manual ? "portal-upload" : random.pick(["automacao-sftp", "automacao-api"]),
      leaseUntil,
      attempts,
      // The seed stores tables of indicators: it classifies them as it stores them, as an upload is classified.
      dataClass: "plain",
      dataClassBy: "seed",
      // An ended job records the rows it refused; the seed keeps none of these files' (its NOK rows name other files).
      ...(state === "completed" || state === "failed" ? { nokRows: 0 } : {}),
    });
  }
  return files;
}
