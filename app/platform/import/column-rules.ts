import { MONEY_RULE } from "~/shared/numbers";
import { type ColumnRule, choiceRule } from "./rules";

/** Shorthands for the column rules (rules.ts) the upload templates declare, each in its feature. */

export const textColumn = (
  required: boolean,
  max: number,
  extra: Partial<Extract<ColumnRule, { kind: "text" }>> = {},
): ColumnRule => ({ kind: "text", required, max, ...extra });

export const choiceColumn = (allowed: readonly string[], rule: string, required = true): ColumnRule =>
  choiceRule(allowed, rule, { required });

/** An amount in R$: MONEY_RULE, as the screens read it (more decimals round to cents). */
export const moneyColumn = (required: boolean): ColumnRule => ({ kind: "decimal", required, ...MONEY_RULE });
