import type { RouteId } from "~/route-ids";
import type { savedViewTexts } from "./texts";

/**
 * The screens that keep views: their path (the URL without its query; a path with segments captures each), the route
 * whose rule opens them, and the query parameters that are the screen's state (its filters, columns, comparison, rows
 * open, page). A view is an address of one of these; the screen's own rules apply to whoever opens it. Pure: the
 * browser's form reads it too.
 */

/** A parameter a view keeps: its value (decoded; "" is always allowed) matches `value`; `many`: it may repeat. */
export type ViewParam = { value: RegExp; many?: true };

export type ViewScreen = {
  id: keyof typeof savedViewTexts.screens;
  pattern: RegExp;
  /** The decoded path segments `pattern` captures, each checked by its pattern. */
  segments?: readonly RegExp[];
  routeId: RouteId;
  params: Readonly<Record<string, ViewParam>>;
  /** One of its views may be the default its plain address opens (false: the screen has no menu entry). */
  keepsDefault: boolean;
};

/** Printable text, at most 200 characters (no control characters). */
const TEXT: ViewParam = { value: /^[^\p{Cc}]{1,200}$/u };
const TEXTS: ViewParam = { ...TEXT, many: true };
const DIGITS: ViewParam = { value: /^\d{1,16}$/ };
const DAY: ViewParam = { value: /^\d{4}-\d{2}-\d{2}$/ };
const MONTH: ViewParam = { value: /^\d{4}-(0[1-9]|1[0-2])$/ };
const RF_NAME = /^RF[1-4] \d{4}$/;
const RF: ViewParam = { value: RF_NAME };
const WORD: ViewParam = { value: /^[\w.:-]{1,60}$/ };
/** A list of words, comma-separated or repeated (a GET form's checkboxes): `cols=rf,actual` or `cols=rf&cols=actual`. */
const WORDS: ViewParam = { value: /^[a-z]{1,20}(,[a-z]{1,20}){0,9}$/, many: true };
const SOURCE: ViewParam = { value: /^(rf|anterior|realizado|v:[0-9a-f]{24})$/ };
const PAGING = { page: DIGITS, pageSize: DIGITS };

const PLANNING_LISTS = [
  "sku",
  "chanel",
  "brand",
  "category",
  "hero",
  "majorCategory",
  "abcd",
  "subCategory",
  "plcLocal",
];

export const VIEW_SCREENS: readonly ViewScreen[] = [
  {
    id: "planning",
    pattern: /^\/ij\/plan_edit$/,
    routeId: "routes/ij.plan_edit",
    params: {
      dateStart: DAY,
      dateEnd: DAY,
      skuMode: { value: /^(sku|attributes)$/ },
      page: DIGITS,
      ...Object.fromEntries(PLANNING_LISTS.map((name) => [name, TEXTS])),
    },
    keepsDefault: true,
  },
  {
    id: "forecastFilter",
    pattern: /^\/ij\/report_create_schneider$/,
    routeId: "routes/ij.report_create_schneider",
    params: { rf: RF, cost_center: TEXT },
    keepsDefault: true,
  },
  {
    id: "review",
    pattern: /^\/ij\/report_preview_edit_schneider\/([^/]+)\/([^/]+)$/,
    segments: [RF_NAME, TEXT.value],
    routeId: "routes/ij.report_preview_edit_schneider.$rf.$cost_center_concat",
    // The difference columns, the version compared and the cell a link opened it at (its history, a dialog, is not).
    params: {
      cols: WORDS,
      versao: { value: /^[0-9a-f]{24}$/ },
      celula: { value: /^[^\p{Cc}]{1,300}:\d{4}-(0[1-9]|1[0-2])$/u },
    },
    keepsDefault: false,
  },
  {
    id: "consolidated",
    pattern: /^\/ij\/forecast_consolidado$/,
    routeId: "routes/ij.forecast_consolidado",
    params: {
      rf: RF,
      ver: SOURCE,
      vs: SOURCE,
      cols: WORDS,
      aprovados: { value: /^1$/ },
      nivel: { value: /^[0-3]$/ },
      abrir: TEXTS,
      fechar: TEXTS,
    },
    keepsDefault: true,
  },
  {
    id: "hr",
    pattern: /^\/ij\/rh_edit\/([^/]+)$/,
    segments: [TEXT.value],
    routeId: "routes/ij.rh_edit.$filial",
    params: { mes_inicio: MONTH, mes_fim: MONTH },
    keepsDefault: true,
  },
  {
    id: "processing",
    pattern: /^\/captura\/processando$/,
    routeId: "routes/captura.processando",
    params: PAGING,
    keepsDefault: true,
  },
  {
    id: "executed",
    pattern: /^\/jobs\/executados$/,
    routeId: "routes/jobs.executados",
    params: PAGING,
    keepsDefault: true,
  },
  {
    id: "audit",
    pattern: /^\/user\/audit$/,
    routeId: "routes/user.audit",
    params: {
      de: DAY,
      ate: DAY,
      usuario: TEXT,
      evento: WORD,
      base: TEXT,
      resultado: WORD,
      objeto: TEXT,
      acao: WORD,
      antes: DIGITS,
      depois: DIGITS,
      entrada: DIGITS,
    },
    keepsDefault: true,
  },
];

/** A path segment decoded, or null when its escapes are not UTF-8. */
function decodedSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The screen of a path with its segments decoded (each checked by its pattern), or null for any other path. */
export function viewScreenAt(pathname: string): { screen: ViewScreen; segments: string[] } | null {
  for (const screen of VIEW_SCREENS) {
    const match = screen.pattern.exec(pathname);
    if (!match) continue;
    const segments = match.slice(1).map(decodedSegment);
    const checks = screen.segments ?? [];
    if (segments.every((s, i) => s !== null && checks[i]?.test(s) && s !== "." && s !== ".."))
      return { screen, segments: segments as string[] };
  }
  return null;
}

export function viewScreenOf(pathname: string): ViewScreen | null {
  return viewScreenAt(pathname)?.screen ?? null;
}

export { VIEWS_PATH } from "./save-form-texts";
