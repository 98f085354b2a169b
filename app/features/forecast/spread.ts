/**
 * "Distribuir total" of the forecast review: its modes, its scopes and the page's data (the arithmetic:
 * `~/shared/spread`).
 */

export const SPREAD_MODES = ["igual", "rf_anterior", "realizado_ano_anterior", "perfil", "pesos"] as const;
export type SpreadMode = (typeof SPREAD_MODES)[number];
/** Several accounts: each takes the whole total ("cada"), or one total is shared by their weights ("repartido"). */
export const SPREAD_SCOPES = ["cada", "repartido"] as const;
export type SpreadScope = (typeof SPREAD_SCOPES)[number];

/** A cell of the preview: its account and month, the value now and the one spread (`value`, for the grid's dialog). */
type PreviewCell = { account: string; key: string; label: string; current: string; next: string; value: number };

export type SpreadPage = {
  rf: string;
  costCenter: string;
  reviewHref: string;
  accounts: { account: string; label: string }[];
  /** The accounts the form names (`conta`, repeatable). */
  chosen: string[];
  openMonths: { key: string; label: string }[];
  /** The stored seasonality profiles the form offers (`perfil`). */
  profiles: { id: string; name: string }[];
  /** `reversal`: the form confirms a total against an account's sign (`estorno`; spread-sign.ts). */
  values: {
    total: string;
    mode: SpreadMode;
    weights: string;
    profile: string;
    scope: SpreadScope;
    reversal: boolean;
  };
  error: string | null;
  preview: { rows: PreviewCell[]; note: string | null; olds: string; stamps: string } | null;
};
