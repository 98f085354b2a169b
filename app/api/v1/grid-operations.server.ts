import { ObjectId } from "mongodb";
import { z } from "zod";
import { apiTexts } from "~/features/api-tokens/texts";
import { parseAuditSearch } from "~/features/audit/list.server";
import { monthRangeOf } from "~/features/hr/grid-page.server";
import { FILIAL_MAX } from "~/features/hr/paths";
import { parseFilter } from "~/features/planning/planning";
import { AUDIT_EVENTS, AUDIT_OUTCOMES } from "~/models/audit.fields";
import { listAuditPage } from "~/models/audit.server";
import { COST_CENTER_CONCAT_MAX, parseScenario } from "~/models/forecast.fields";
import { costCentersOfScenario, readWindow } from "~/models/forecast.server";
import { scenarioCalendar } from "~/models/forecast-calendar";
import { CYCLE_STATES, INITIAL_STATE } from "~/models/forecast-cycle.fields";
import { cyclesOf } from "~/models/forecast-cycle.server";
import { forecastScopeOf, inForecastScope } from "~/models/forecast-readers.server";
import { HR_FIGURE_FIELDS } from "~/models/hr.fields";
import { branchScopeOf, branchVisible, pageAuxRows } from "~/models/hr.server";
import { ATTRIBUTES } from "~/models/planning.fields";
import { pagePlanningRows } from "~/models/planning-queries.server";
import { monthKey, monthOfDate, monthStartDate } from "~/shared/months";
import { apiJson, problemResponse } from "../problem.server";
import { decodeCursor, encodeCursor } from "./cursor";
import { type Operation, problemSchema } from "./operation";

/**
 * The grids' data as JSON, read through the same model functions and scope as their screens: the forecast of an RF's
 * cost centres with each one's cycle state (the review grid's rule and the forecast's read rule: a preparer reads the
 * cost centres they prepare), and a branch's HR auxiliary rows (the HR grid's rule and branch scope, CPF masked by the
 * model as on the screen). Paged by an opaque cursor.
 */

const limitParam = (max: number, fallback: number) =>
  z.coerce.number().int().min(1).max(max).optional().describe(`Itens por página, de 1 a ${max} (padrão ${fallback}).`);
const cursorParam = z.string().max(400).optional().describe("O `next` da página anterior.");
const invalid = (name: string) =>
  problemResponse({
    code: "invalid",
    status: 400,
    title: apiTexts.invalid,
    extra: { errors: [{ in: "query", name, message: apiTexts.invalid }] },
  });

const forecastQuery = z.object({
  rf: z
    .string()
    .regex(/^RF[1-4] \d{4}$/)
    .describe('O cenário, por exemplo "RF3 2026".'),
  cost_center: z.string().min(1).max(COST_CENTER_CONCAT_MAX).optional().describe("Um centro de custo só."),
  cursor: cursorParam,
  limit: limitParam(20, 5),
});

const forecastCostCenter = z.object({
  costCenter: z.string(),
  level: z.string(),
  state: z.enum(CYCLE_STATES).describe("O estado do ciclo do centro de custo neste RF."),
  accounts: z.array(
    z.object({
      account: z.string(),
      group: z.string(),
      label: z.string(),
      months: z.array(z.object({ month: z.string(), actual: z.number().nullable(), forecast: z.number().nullable() })),
    }),
  ),
});

const hrQuery = z.object({
  filial: z.string().min(1).max(FILIAL_MAX).describe("A filial (como em /ij/rh)."),
  mes_inicio: z.string().max(32).optional().describe("Primeiro mês, AAAA-MM (padrão: o mês de /ij/rh_edit)."),
  mes_fim: z.string().max(32).optional().describe("Último mês, AAAA-MM."),
  cursor: cursorParam,
  limit: limitParam(500, 100),
});

const hrRow = z.object({
  id: z.string(),
  filial: z.string(),
  month: z.string(),
  nome: z.string(),
  cpf: z.string().describe("Mascarado, como na tela."),
  comentario: z.string(),
  figures: z.record(z.number()),
});

const HEX_ID = z.string().regex(/^[0-9a-f]{24}$/);

export const GRID_OPERATIONS: readonly Operation[] = [
  {
    id: "readForecast",
    method: "GET",
    path: "/forecast",
    summary: "O forecast de um RF por centro de custo, com o estado do ciclo",
    description:
      "Os valores (realizado e forecast por mês da janela do RF) de cada conta dos centros de custo do RF, em ordem de código, e o estado do ciclo de cada um (preparing, submitted, returned, approved). Só os centros de custo que o dono do token pode ler, como na revisão (quem não é revisor: os que prepara); `cost_center` de outro responde 404.",
    rule: {
      routeId: "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat",
      mode: "read",
      screen: "/ij/report_preview_edit_schneider/{rf}/{cost_center_concat}",
    },
    writes: false,
    query: forecastQuery,
    responses: {
      200: {
        description: "Uma página de centros de custo.",
        schema: z.object({ rf: z.string(), data: z.array(forecastCostCenter), next: z.string().nullable() }),
        example: {
          rf: "RF3 2026",
          data: [
            {
              costCenter: "CC1001 - Marketing",
              level: "Comercial",
              state: "submitted",
              accounts: [
                {
                  account: "4.1.01 - Salários",
                  group: "Pessoal",
                  label: "Salários",
                  months: [{ month: "2026-09", actual: null, forecast: 12500.5 }],
                },
              ],
            },
          ],
          next: null,
        },
      },
      404: { description: "`cost_center` que o dono do token não pode ler.", schema: problemSchema },
    },
    run: async ({ caller, query }) => {
      const q = query as z.infer<typeof forecastQuery>;
      const scenario = parseScenario(q.rf);
      if (!scenario) return invalid("rf");
      const scope = await forecastScopeOf(caller.user);
      // Another's cost centre answers as one that does not exist: the caller learns nothing of it.
      if (q.cost_center && !inForecastScope(scope, q.cost_center))
        return problemResponse({ code: "not-found", status: 404, title: apiTexts.costCenterNotFound });
      const all = (await costCentersOfScenario(scenario.name)).filter((c) =>
        inForecastScope(scope, c.cost_center_concat),
      );
      const wanted = q.cost_center ? all.filter((c) => c.cost_center_concat === q.cost_center) : all;
      const after = q.cursor ? decodeCursor(q.cursor, z.tuple([z.string().max(COST_CENTER_CONCAT_MAX)])) : undefined;
      if (after === null) return invalid("cursor");
      const start = after ? wanted.findIndex((c) => c.cost_center_concat === after[0]) + 1 : 0;
      const limit = q.limit ?? 5;
      const page = wanted.slice(start, start + limit);
      const calendar = scenarioCalendar(scenario);
      const from = monthStartDate(calendar.firstMonth);
      const to = monthStartDate(calendar.lastMonth + 1);
      const [windows, cycles] = await Promise.all([
        Promise.all(page.map((c) => readWindow(scenario.name, c.cost_center_concat, from, to))),
        cyclesOf(
          scenario.name,
          page.map((c) => c.cost_center_concat),
        ),
      ]);
      const data = page.map((c, i) => ({
        costCenter: c.cost_center_concat,
        level: c.level,
        state: cycles.get(c.cost_center_concat)?.state ?? INITIAL_STATE,
        accounts: windows[i]
          .map((account) => ({
            account: account._id.account,
            group: account._id.group,
            label: account.label,
            months: account.months
              .map((month, m) => ({
                month: monthKey(monthOfDate(month)),
                actual: account.values[m],
                forecast: account.forecasts[m],
              }))
              .sort((a, b) => a.month.localeCompare(b.month)),
          }))
          .sort((a, b) => a.account.localeCompare(b.account) || a.group.localeCompare(b.group)),
      }));
      const last = page.at(-1);
      return apiJson({
        rf: scenario.name,
        data,
        next: last && start + limit < wanted.length ? encodeCursor([last.cost_center_concat]) : null,
      });
    },
  },
  {
    id: "readHr",
    method: "GET",
    path: "/hr",
    summary: "Os dados auxiliares de RH de uma filial",
    description:
      "As linhas de /ij/rh_edit/{filial} no intervalo de meses, na ordem da tela (mês, nome), com o CPF mascarado. Só filiais do escopo do dono do token: outra responde 404, como na tela.",
    rule: { routeId: "routes/ij.rh_edit.$filial", mode: "read", screen: "/ij/rh_edit/{filial}" },
    writes: false,
    query: hrQuery,
    responses: {
      200: {
        description: "Uma página de linhas.",
        schema: z.object({ data: z.array(hrRow), next: z.string().nullable() }),
        example: {
          data: [
            {
              id: "6650f1c2a1b2c3d4e5f60718",
              filial: "Loja Centro",
              month: "2026-10",
              nome: "Maria Souza",
              cpf: "***.456.789-**",
              comentario: "",
              figures: Object.fromEntries(HR_FIGURE_FIELDS.map((f) => [f, 0])),
            },
          ],
          next: null,
        },
      },
    },
    run: async ({ caller, query, request }) => {
      const q = query as z.infer<typeof hrQuery>;
      const scope = await branchScopeOf(caller.user.email);
      if (!(await branchVisible(q.filial, scope)))
        return problemResponse({ code: "not-found", status: 404, title: apiTexts.branchNotFound });
      const months = monthRangeOf(new URL(request.url));
      if (!months.ok)
        return problemResponse({ code: "invalid", status: 400, title: apiTexts.invalid, detail: months.error });
      const key = q.cursor
        ? decodeCursor(q.cursor, z.tuple([z.number().int(), z.string().max(400), HEX_ID]))
        : undefined;
      if (key === null) return invalid("cursor");
      const limit = q.limit ?? 100;
      const rows = await pageAuxRows(
        q.filial,
        months.range,
        key ? { mes_apur: new Date(key[0]), nome: key[1], id: hexId(key[2]) } : undefined,
        limit,
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return apiJson({
        data: page.map((r) => ({
          id: r.id,
          filial: r.filial_nome,
          month: monthKey(r.mes_apur),
          nome: r.nome,
          cpf: r.cpf,
          comentario: r.comentario,
          figures: Object.fromEntries(HR_FIGURE_FIELDS.map((f) => [f, r[f]])),
        })),
        next:
          rows.length > limit && last
            ? encodeCursor([monthStartDate(last.mes_apur).getTime(), last.nome, last.id])
            : null,
      });
    },
  },
];

const auditQuery = z.object({
  de: z.string().max(10).optional().describe("Desde o dia (AAAA-MM-DD, no fuso do portal)."),
  ate: z.string().max(10).optional().describe("Até o dia (AAAA-MM-DD), inclusive."),
  usuario: z.string().max(200).optional().describe("O e-mail de quem fez."),
  evento: z.enum(AUDIT_EVENTS).optional(),
  base: z.string().max(100).optional().describe("A base de dados."),
  resultado: z.enum(AUDIT_OUTCOMES).optional(),
  cursor: cursorParam,
  limit: limitParam(200, 50),
});

const auditEntry = z.object({
  n: z.number().int(),
  at: z.string().datetime(),
  actor: z.object({ email: z.string().nullable(), name: z.string().nullable(), type: z.string().nullable() }),
  ip: z.string().nullable(),
  event: z.enum(AUDIT_EVENTS),
  object: z.object({ kind: z.string(), id: z.string(), label: z.string().nullable() }).nullable(),
  dataset: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  details: z.record(z.unknown()),
});

export const AUDIT_OPERATION: Operation = {
  id: "readAudit",
  method: "GET",
  path: "/audit",
  summary: "O registro de auditoria, do mais recente ao mais antigo",
  description: "Os filtros de /user/audit (mesmos nomes), paginado por cursor. Só SYSTEM ADMIN.",
  rule: { routeId: "routes/user.audit", mode: "read", screen: "/user/audit" },
  writes: false,
  query: auditQuery,
  responses: {
    200: {
      description: "Uma página de entradas.",
      schema: z.object({ data: z.array(auditEntry), next: z.string().nullable() }),
      example: {
        data: [
          {
            n: 1042,
            at: "2026-11-27T14:03:11.000Z",
            actor: { email: "ana.lima@empresa.com.br", name: "Ana Lima", type: "USER GOLD" },
            ip: "203.0.113.7",
            event: "dataEdited",
            object: { kind: "costCentre", id: "RF3 2026 · CC1001", label: "RF 3 2026 · CC1001 - Marketing" },
            dataset: "forecast",
            outcome: "ok",
            details: { rows: 1 },
          },
        ],
        next: null,
      },
    },
  },
  run: async ({ request, query }) => {
    const search = await parseAuditSearch(new URL(request.url));
    if (search.error)
      return problemResponse({ code: "invalid", status: 400, title: apiTexts.invalid, detail: search.error });
    const q = query as z.infer<typeof auditQuery>;
    const key = q.cursor ? decodeCursor(q.cursor, z.tuple([z.number().int().min(0)])) : undefined;
    if (key === null) return invalid("cursor");
    const page = await listAuditPage(search.filter, key ? { before: key[0] } : {}, q.limit ?? 50);
    const last = page.entries.at(-1);
    return apiJson({
      data: page.entries.map((e) => ({
        n: e.n,
        at: e.at.toISOString(),
        actor: e.actor,
        ip: e.ip,
        event: e.event,
        object: e.object,
        dataset: e.dataset,
        outcome: e.outcome,
        details: e.details,
      })),
      next: page.hasOlder && last ? encodeCursor([last.n]) : null,
    });
  },
};

const planningQuery = z.object({
  dateStart: z.string().max(10).optional().describe("Competência desde (AAAA-MM-DD)."),
  dateEnd: z.string().max(10).optional().describe("Competência até (AAAA-MM-DD)."),
  sku: z.string().max(100).optional().describe("Um SKU; repita o parâmetro para vários."),
  ...Object.fromEntries(
    ATTRIBUTES.map((a) => [
      a.param,
      z.string().max(200).optional().describe("Repita o parâmetro para vários valores."),
    ]),
  ),
  cursor: cursorParam,
  limit: limitParam(500, 100),
});

const planningRow = z.object({
  id: z.string(),
  creationDate: z.string().datetime(),
  dateRef: z.string().datetime(),
  sku: z.string(),
  description: z.string(),
  channel: z.string(),
  quantity: z.number(),
  attributes: z.record(z.string().nullable()),
});

export const PLANNING_OPERATION: Operation = {
  id: "readPlanning",
  method: "GET",
  path: "/planning",
  summary: "As quantidades planejadas por SKU",
  description:
    "As linhas de /ij/plan_edit com os filtros de /ij/report_preview (datas de competência, SKUs e atributos; todos os canais), da mais recente à mais antiga, paginadas por cursor.",
  rule: { routeId: "routes/ij.plan_edit", mode: "read", screen: "/ij/plan_edit" },
  writes: false,
  query: planningQuery,
  responses: {
    200: {
      description: "Uma página de linhas.",
      schema: z.object({ data: z.array(planningRow), next: z.string().nullable() }),
      example: {
        data: [
          {
            id: "6650f1c2a1b2c3d4e5f60718",
            creationDate: "2026-11-02T10:00:00.000Z",
            dateRef: "2026-12-01T00:00:00.000Z",
            sku: "SKU-001",
            description: "Perfume 100 ml",
            channel: "WHOLESALES",
            quantity: 1300,
            attributes: { brand: "Marca", abcd: "A" },
          },
        ],
        next: null,
      },
    },
  },
  run: async ({ request, query }) => {
    const parsed = parseFilter(new URL(request.url).searchParams, "report");
    if (!parsed.ok)
      return problemResponse({
        code: "invalid",
        status: 400,
        title: apiTexts.invalid,
        extra: {
          errors: Object.entries(parsed.errors).map(([name, messages]) => ({
            in: "query",
            name,
            message: (messages ?? []).join(" "),
          })),
        },
      });
    const q = query as { cursor?: string; limit?: number };
    const key = q.cursor ? decodeCursor(q.cursor, z.tuple([z.number().int(), HEX_ID])) : undefined;
    if (key === null) return invalid("cursor");
    const limit = q.limit ?? 100;
    const rows = await pagePlanningRows(
      parsed.filter,
      key ? { creationDate: new Date(key[0]), id: hexId(key[1]) } : undefined,
      limit,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return apiJson({
      data: page.map((r) => ({
        id: String(r._id),
        creationDate: r.creationDate.toISOString(),
        dateRef: r.dateRef.toISOString(),
        sku: r.sku,
        description: r.material_description ?? "",
        channel: r.channel,
        quantity: r.valor,
        attributes: Object.fromEntries(
          ATTRIBUTES.map((a) => [a.param, ((r as Record<string, unknown>)[a.field] as string | null) ?? null]),
        ),
      })),
      next: rows.length > limit && last ? encodeCursor([last.creationDate.getTime(), String(last._id)]) : null,
    });
  },
};

function hexId(hex: string) {
  return ObjectId.createFromHexString(hex);
}
