import { Readable } from "node:stream";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { canAccessRoute, canUploadTo, type RouteId } from "~/access";
import { accessContext } from "~/config.server";
import { apiTexts } from "~/features/api-tokens/texts";
import { fixRowsDownload } from "~/features/uploads-and-jobs/fix-rows.server";
import { retryOneJob, retryRefusalStatus } from "~/features/uploads-and-jobs/job-list.server";
import { jobStateText } from "~/features/uploads-and-jobs/job-row";
import { jobTexts } from "~/messages";
import {
  type FileListItem,
  findFileById,
  JOB_STATES,
  jobStateOf,
  listJobsByCursor,
  toListItem,
} from "~/models/file-jobs.server";
import { templateInfo, templatesFor } from "~/platform/import/catalog.server";
import { nokRowsDownload, refusedRowsOfFiles } from "~/platform/import/nok-rows.server";
import { handleSingleFileUpload } from "~/platform/import/upload.server";
import { hasControlCharacter } from "~/shared/control-characters";
import type { ApiCaller } from "../auth.server";
import { apiJson, type Problem, problemResponse } from "../problem.server";
import { decodeCursor, encodeCursor } from "./cursor";
import { type Operation, problemSchema } from "./operation";

/**
 * The operations of `/api/v1`, each with the screen whose rule it applies (the caller's permission type as it stands
 * now, through app/access.ts), the zod schemas that validate its parameters (and describe them in the OpenAPI
 * document, openapi.server.ts) and one example answer. Each reads and writes through the same functions as its
 * screen: the upload pipeline, the job lists' retry, the refused rows' downloads (scoped and masked as there).
 */

const XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const OBJECT_ID = /^[0-9a-fA-F]{24}$/;
const jobIdParams = z.object({ id: z.string().regex(OBJECT_ID).describe("O id do job (24 caracteres hexadecimais).") });

const columnSchema = z.object({
  name: z.string(),
  type: z.string(),
  unit: z.string(),
  required: z.boolean(),
  rule: z.string(),
  description: z.string(),
  example: z.union([z.string(), z.number()]),
});
const datasetSchema = z.object({
  id: z.string(),
  label: z.string(),
  feeds: z.string(),
  allOrNothing: z.boolean().describe("true: uma linha recusada recusa o arquivo inteiro."),
  columns: z.array(columnSchema),
});

/**
 * What a job came to, by the job lists' own rule (jobStateText; the lists mark a completed job that refused rows apart
 * from a clean one): it refines `state`, whose three values stay as they were for the clients and the filter.
 */
export const JOB_OUTCOMES = ["running", "completed", "completedWithRefusals", "refused", "failed"] as const;
type JobOutcome = (typeof JOB_OUTCOMES)[number];
const OUTCOME_OF_WORDS = {
  inProgress: "running",
  completed: "completed",
  partial: "completedWithRefusals",
  refused: "refused",
  failed: "failed",
} as const satisfies Record<string, JobOutcome>;

const jobSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  user: z.string(),
  state: z.enum(JOB_STATES),
  outcome: z
    .enum(JOB_OUTCOMES)
    .describe(
      "O resultado, pela regra das listas de jobs: running (em andamento); completed (concluído sem recusas); completedWithRefusals (concluído com linhas recusadas: refusedRows as conta e links.refused as baixa); refused (arquivo recusado pelo conteúdo: corrija e reenvie); failed (falhou: retry pode resolver). Detalha state, que mantém seus três valores.",
    ),
  statusCode: z.number().int().describe("0 ok, 2 layout desconhecido, 3 ilegível ou sem permissão, 4 recusado."),
  progress: z.number().int().min(0).max(100),
  message: z.string(),
  refusedRows: z
    .number()
    .int()
    .min(0)
    .describe("Linhas recusadas pelo processamento (base NOK); um job concluído com recusas tem mais de zero."),
  retryable: z.boolean(),
  createdAt: z.string().datetime(),
  updatedAt: z.string().datetime(),
  links: z.object({
    self: z.string(),
    refused: z
      .string()
      .optional()
      .describe(
        "Presente exatamente quando há linhas recusadas que o chamador pode baixar (GET /api/v1/jobs/{id}/refused responde 200), qualquer que seja o estado do job.",
      ),
    retry: z.string().optional(),
  }),
});

type Job = z.infer<typeof jobSchema>;

const jobPath = (id: string) => `/api/v1/jobs/${id}`;

/** `refused`: the caller may download refused rows of the job (refusedRowsOfFiles, the download's own rule). */
function toJob(item: FileListItem, refused: boolean): Job {
  const state = jobStateOf(item);
  // The lists' rule, told also by the refused rows' own rule: a record from before the count (nokRows 0) whose refused
  // rows are there to download refused rows too, so `outcome` and `links.refused` never disagree.
  const nokRows = refused ? Math.max(item.nokRows, 1) : item.nokRows;
  return {
    id: item.id,
    fileName: item.originalName ?? "",
    user: item.user ?? "",
    state,
    outcome: jobStateText({ ...item, nokRows }, OUTCOME_OF_WORDS),
    statusCode: item.status,
    progress: Math.max(0, Math.min(100, Math.round(Number(item.progress) || 0))),
    message: item.message ?? "",
    refusedRows: item.nokRows,
    retryable: item.retryable,
    createdAt: new Date(item.createdAt).toISOString(),
    updatedAt: new Date(item.statusChangeDate).toISOString(),
    links: {
      self: jobPath(item.id),
      ...(refused ? { refused: `${jobPath(item.id)}/refused` } : {}),
      ...(item.retryable ? { retry: `${jobPath(item.id)}/retry` } : {}),
    },
  };
}

const EXAMPLE_JOB: Job = {
  id: "6650f1c2a1b2c3d4e5f60718",
  fileName: "planejamento-maio.csv",
  user: "ana.lima@empresa.com.br",
  state: "completed",
  outcome: "completedWithRefusals",
  statusCode: 0,
  progress: 100,
  message: "118 linhas OK, 2 NOK",
  refusedRows: 2,
  retryable: false,
  createdAt: "2026-05-02T12:00:00.000Z",
  updatedAt: "2026-05-02T12:00:09.000Z",
  links: {
    self: "/api/v1/jobs/6650f1c2a1b2c3d4e5f60718",
    refused: "/api/v1/jobs/6650f1c2a1b2c3d4e5f60718/refused",
  },
};

/** A job just queued: nothing refused yet. */
const EXAMPLE_QUEUED_JOB: Job = {
  ...EXAMPLE_JOB,
  state: "running",
  outcome: "running",
  statusCode: 0,
  progress: 0,
  message: "",
  refusedRows: 0,
  links: { self: EXAMPLE_JOB.links.self },
};

/** The jobs of `items` as the caller sees them, each linking its refused rows exactly when the download has some. */
async function toJobs(items: FileListItem[], caller: ApiCaller): Promise<Job[]> {
  const refused = await refusedRowsOfFiles(items, caller.user);
  return items.map((item) => toJob(item, refused.has(item.id)));
}

const ALL_JOBS_ROUTE: RouteId = "routes/jobs.executados";

/** The caller sees a job they uploaded, or any job when their type may open the list of everyone's jobs. */
function seesEveryJob(caller: ApiCaller): boolean {
  return canAccessRoute(caller.user.type, ALL_JOBS_ROUTE, accessContext());
}

const problem = (p: Problem) => problemResponse(p);
const jobNotFound = () => problem({ code: "not-found", status: 404, title: apiTexts.jobNotFound });

async function visibleJob(caller: ApiCaller, id: string) {
  const file = await findFileById(ObjectId.createFromHexString(id));
  if (!file?._id) return null;
  if (file.user !== caller.user.email && !seesEveryJob(caller)) return null;
  return file;
}

/** A refused download's thrown answer (a 404 text page) as the API's problem. */
async function asProblem(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status === 404) return jobNotFound();
    throw thrown;
  }
}

const UPLOAD_TYPES: Record<string, string> = {
  "text/csv": "csv",
  "text/plain": "txt",
  "application/csv": "csv",
  [XLSX_CONTENT_TYPE]: "xlsx",
};

const HEX_ID = z.string().regex(/^[0-9a-f]{24}$/);
const jobCursor = z.tuple([z.number().int().min(0).max(8.64e15), HEX_ID]);

const listQuery = z.object({
  state: z.enum(JOB_STATES).optional().describe("completed, running ou failed."),
  since: z
    .string()
    .datetime({ offset: true })
    .optional()
    .describe("Só jobs alterados a partir deste instante (ISO 8601)."),
  scope: z
    .enum(["own", "all"])
    .optional()
    .describe("own (padrão): os seus envios; all: os de todos, para quem pode abrir /jobs/executados."),
  cursor: z.string().max(400).optional().describe("O `next` da página anterior."),
  limit: z.coerce.number().int().min(1).max(100).optional().describe("Itens por página, de 1 a 100 (padrão 20)."),
});

export const JOB_OPERATIONS: readonly Operation[] = [
  {
    id: "listDatasets",
    method: "GET",
    path: "/datasets",
    summary: "As bases que o chamador pode carregar",
    description:
      "Os modelos de carga (como em /captura/manual) que o tipo de permissão do dono do token pode enviar agora, com suas colunas e regras.",
    rule: { routeId: "routes/captura.manual", mode: "read", screen: "/captura/manual" },
    writes: false,
    responses: {
      200: {
        description: "As bases.",
        schema: z.object({ data: z.array(datasetSchema) }),
        example: {
          data: [
            {
              id: "planning_quantity",
              label: "Planejamento de quantidades",
              feeds: "/ij/plan_edit",
              allOrNothing: true,
              columns: [
                {
                  name: "sku",
                  type: "texto",
                  unit: "",
                  required: true,
                  rule: "Obrigatório",
                  description: "Código do SKU",
                  example: "SKU-001",
                },
              ],
            },
          ],
        },
      },
    },
    run: async ({ caller }) =>
      apiJson({
        data: templatesFor(caller.user.type).map((t) => ({
          id: t.id,
          label: t.label,
          feeds: t.feeds,
          allOrNothing: t.allOrNothing,
          columns: t.columns,
        })),
      }),
  },
  {
    id: "createUpload",
    method: "POST",
    path: "/uploads",
    summary: "Envia um arquivo de uma base",
    description:
      "O corpo é o arquivo (CSV ou XLSX), transmitido sem ser guardado inteiro em memória, com os mesmos limites de /captura/manual. O arquivo entra na mesma fila, com as mesmas regras e recusas de um envio pela tela; um cabeçalho de outra base é recusado. Responde 202 com o job e o cabeçalho Location.",
    rule: { routeId: "routes/api.upload", mode: "write", screen: "/captura/manual" },
    writes: true,
    query: z.object({
      dataset: z.string().min(1).max(60).describe("O id da base (GET /api/v1/datasets)."),
      filename: z
        .string()
        .min(1)
        .max(200)
        .regex(/^[^\\/]+$/)
        .refine((name) => !hasControlCharacter(name, true), "caractere de controle no nome")
        .optional()
        .describe("O nome do arquivo como aparecerá nas listas; padrão: <dataset>.<extensão>."),
    }),
    body: { contentTypes: ["text/csv", XLSX_CONTENT_TYPE], description: "O arquivo." },
    responses: {
      202: {
        description: "Recebido: o job foi criado e aguarda processamento.",
        schema: jobSchema,
        example: EXAMPLE_QUEUED_JOB,
      },
      413: { description: "Arquivo maior que o limite.", schema: problemSchema },
      415: { description: "Content-Type não aceito.", schema: problemSchema },
    },
    run: async ({ request, caller, query }) => {
      const dataset = String(query.dataset);
      const info = templateInfo(dataset);
      if (!info)
        return problem({
          code: "invalid",
          status: 400,
          title: apiTexts.invalid,
          detail: apiTexts.datasetUnknown(dataset),
        });
      if (!canUploadTo(caller.user.type, info.id, accessContext()))
        return problem({
          code: "forbidden",
          status: 403,
          title: apiTexts.forbidden,
          detail: apiTexts.datasetRefused(info.label),
        });
      const mediaType = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
      // An own key only: "constructor" or "__proto__" as a Content-Type must not find Object.prototype's.
      const extension = Object.hasOwn(UPLOAD_TYPES, mediaType) ? UPLOAD_TYPES[mediaType] : undefined;
      if (!extension) return problem({ code: "unsupported-media-type", status: 415, title: apiTexts.contentType });
      if (!request.body) return problem({ code: "invalid", status: 400, title: apiTexts.noBody });
      const fileName = typeof query.filename === "string" ? query.filename : `${dataset}.${extension}`;
      const declared = Number(request.headers.get("Content-Length"));
      const result = await handleSingleFileUpload({
        body: Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>),
        fileName,
        contentType: mediaType,
        declaredBytes: Number.isFinite(declared) && declared > 0 ? declared : undefined,
        user: caller.user.email,
        dataset: info.id,
      });
      if ("failure" in result)
        return problem({
          code:
            result.failure.status === 413 ? "too-large" : result.failure.status === 409 ? "conflict" : "upload-refused",
          status: Math.min(result.failure.status, 500),
          title: apiTexts.uploadFailed,
          detail: result.failure.detail,
        });
      const file = await findFileById(ObjectId.createFromHexString(result.file.id));
      if (!file?._id) return jobNotFound();
      const [job] = await toJobs([toListItem(file)], caller);
      return apiJson(job, { status: 202, headers: { Location: jobPath(result.file.id) } });
    },
  },
  {
    id: "listJobs",
    method: "GET",
    path: "/jobs",
    summary: "Os jobs, do mais recente ao mais antigo",
    description:
      "Paginado por cursor: siga `next` até que venha null. Por padrão os envios do próprio chamador, como em /captura/processando; `scope=all` lista os de todos, para quem pode abrir /jobs/executados.",
    rule: { routeId: "routes/captura.processando", mode: "read", screen: "/captura/processando" },
    writes: false,
    query: listQuery,
    responses: {
      200: {
        description: "Uma página de jobs.",
        schema: z.object({ data: z.array(jobSchema), next: z.string().nullable() }),
        example: { data: [EXAMPLE_JOB], next: null },
      },
    },
    run: async ({ caller, query }) => {
      const q = query as z.infer<typeof listQuery>;
      if (q.scope === "all" && !seesEveryJob(caller))
        return problem({
          code: "forbidden",
          status: 403,
          title: apiTexts.forbidden,
          detail: apiTexts.forbiddenRule("/jobs/executados"),
          extra: { rule: "/jobs/executados" },
        });
      const key = q.cursor ? decodeCursor(q.cursor, jobCursor) : undefined;
      if (key === null)
        return problem({
          code: "invalid",
          status: 400,
          title: apiTexts.invalid,
          extra: { errors: [{ path: "cursor" }] },
        });
      const limit = q.limit ?? 20;
      const items = await listJobsByCursor({
        ...(q.scope === "all" ? {} : { user: caller.user.email }),
        state: q.state,
        since: q.since ? new Date(q.since) : undefined,
        after: key ? { at: new Date(key[0]), id: ObjectId.createFromHexString(key[1]) } : undefined,
        limit,
      });
      const page = items.slice(0, limit);
      const last = page[page.length - 1];
      return apiJson({
        data: await toJobs(page, caller),
        next: items.length > limit && last ? encodeCursor([last.statusChangeDate.getTime(), last.id]) : null,
      });
    },
  },
  {
    id: "getJob",
    method: "GET",
    path: "/jobs/{id}",
    summary: "Um job: situação, progresso e mensagem",
    description: "O job de um envio do chamador, ou de qualquer envio para quem pode abrir /jobs/executados.",
    rule: { routeId: "routes/captura.processando", mode: "read", screen: "/captura/processando" },
    writes: false,
    params: jobIdParams,
    responses: {
      200: { description: "O job.", schema: jobSchema, example: EXAMPLE_JOB },
      404: { description: "Job inexistente ou de outro usuário.", schema: problemSchema },
    },
    run: async ({ caller, params }) => {
      const file = await visibleJob(caller, params.id);
      if (!file?._id) return jobNotFound();
      const [job] = await toJobs([toListItem(file)], caller);
      return apiJson(job);
    },
  },
  {
    id: "getRefusedRows",
    method: "GET",
    path: "/jobs/{id}/refused",
    summary: "As linhas recusadas de um job (CSV ou XLSX)",
    description:
      "As mesmas linhas dos downloads da tela, com o mesmo escopo (dados de RH só das filiais do chamador, CPF mascarado). `Accept` com o tipo do XLSX devolve a planilha para corrigir e reenviar; qualquer outro, o CSV. O job traz `links.refused` exatamente quando há linhas recusadas a baixar, concluído ou não.",
    rule: { routeId: "routes/captura.processando_.nok.$id", mode: "read", screen: "/captura/processando" },
    writes: false,
    params: jobIdParams,
    responses: {
      200: {
        description: "As linhas recusadas.",
        contentType: "text/csv",
        example: "sku;mes;quantidade;erro\nSKU-9;2026-05;-3;Quantidade negativa\n",
      },
      404: { description: "Job inexistente, de outro usuário ou sem linhas recusadas.", schema: problemSchema },
    },
    run: async ({ request, caller, params }) => {
      const wantsXlsx = (request.headers.get("Accept") ?? "").includes(XLSX_CONTENT_TYPE);
      return asProblem(() => (wantsXlsx ? fixRowsDownload(params, caller.user) : nokRowsDownload(params, caller.user)));
    },
  },
  {
    id: "retryJob",
    method: "POST",
    path: "/jobs/{id}/retry",
    summary: "Reprocessa um job que falhou",
    description:
      'Como "Tentar novamente": só quem enviou o arquivo ou um SYSTEM ADMIN, e só uma falha que um novo processamento pode superar.',
    rule: { routeId: "routes/captura.processando", mode: "write", screen: "/captura/processando" },
    writes: true,
    params: jobIdParams,
    responses: {
      202: {
        description: "O job voltou para a fila.",
        schema: jobSchema,
        example: EXAMPLE_QUEUED_JOB,
      },
      409: { description: "O job não falhou, ou seria recusado de novo.", schema: problemSchema },
    },
    run: async ({ caller, params }) => {
      if (!(await visibleJob(caller, params.id))) return jobNotFound();
      const decision = await retryOneJob(caller.user, params.id);
      if (!decision.ok) {
        const status = retryRefusalStatus(decision.reason);
        return problem({
          code: status === 409 ? "conflict" : status === 403 ? "forbidden" : status === 404 ? "not-found" : "invalid",
          status,
          title: jobTexts.retryRefused[decision.reason],
        });
      }
      const file = await findFileById(ObjectId.createFromHexString(params.id));
      if (!file?._id) return jobNotFound();
      const [job] = await toJobs([toListItem(file)], caller);
      return apiJson(job, { status: 202, headers: { Location: jobPath(params.id) } });
    },
  },
];
