import { z } from "zod";
import { parseScenario } from "../release-points";
import {
  COMPARISON_GROUPS,
  type ComparisonGroup,
  type ConsolidatedQuery,
  DEFAULT_QUERY,
  MAX_LEVEL,
  parseSourceToken,
  sameSource,
} from "./query";

/**
 * The consolidated view's address read on the server (query.ts says what it holds): every parameter through zod, a
 * part that does not fit dropped and said so, never a 500.
 */

const KEY_MAX = 520;
const KEYS_MAX = 300;

/** The query string as zod reads it: a part that does not fit is dropped (and `invalid` says so), never a 500. */
export function parseConsolidatedQuery(params: URLSearchParams): { query: ConsolidatedQuery; invalid: boolean } {
  let invalid = false;
  const fallback =
    <T>(value: T) =>
    () => {
      invalid = true;
      return value;
    };
  const source = z
    .string()
    .max(40)
    .transform((token, ctx) => {
      const parsed = parseSourceToken(token);
      if (!parsed) ctx.addIssue({ code: "custom" });
      return parsed ?? z.NEVER;
    });
  const keys = z.array(z.string().min(1).max(KEY_MAX)).max(KEYS_MAX);
  const schema = z.object({
    rf: z
      .string()
      .max(20)
      .refine((rf) => parseScenario(rf) !== null)
      .nullable()
      .catch(fallback(null)),
    ver: source.nullable().catch(fallback(null)),
    vs: source.nullable().catch(fallback(null)),
    cols: z.array(z.enum(COMPARISON_GROUPS)).max(COMPARISON_GROUPS.length).catch(fallback<ComparisonGroup[]>([])),
    aprovados: z.enum(["1"]).nullable().catch(fallback(null)),
    nivel: z.coerce.number().int().min(0).max(MAX_LEVEL).nullable().catch(fallback(null)),
    abrir: keys.catch(fallback<string[]>([])),
    fechar: keys.catch(fallback<string[]>([])),
  });
  const parsed = schema.parse({
    rf: params.get("rf") || null,
    ver: params.get("ver") || null,
    vs: params.get("vs") || null,
    cols: params
      .getAll("cols")
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter(Boolean),
    aprovados: params.get("aprovados") || null,
    nivel: params.get("nivel") || null,
    abrir: params.getAll("abrir"),
    fechar: params.getAll("fechar"),
  });
  const base = parsed.ver ?? DEFAULT_QUERY.base;
  const compare = parsed.vs && !sameSource(parsed.vs, base) ? parsed.vs : null;
  const cols = [...new Set(parsed.cols)];
  return {
    invalid,
    query: {
      rf: parsed.rf,
      base,
      compare,
      cols: compare && cols.length === 0 ? ["total"] : cols,
      approvedOnly: parsed.aprovados === "1",
      level: parsed.nivel ?? 0,
      open: [...new Set(parsed.abrir)],
      closed: [...new Set(parsed.fechar)],
    },
  };
}
