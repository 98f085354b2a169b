/**
 * The portal's string orders, each one Intl.Collator built once. `a.localeCompare(b, locale, options)` builds a
 * collator on every call, which made sorting a forecast grid's accounts a visible part of its page's time.
 */

/** Codes with digits in numeric order ("CC2" before "CC10"), locale-neutral. */
export const byNumericCode = new Intl.Collator("en", { numeric: true }).compare;

/** Names as Brazilian Portuguese orders them. */
export const byPtBr = new Intl.Collator("pt-BR").compare;

/** Brazilian Portuguese with digits in numeric order. */
export const byPtBrNumeric = new Intl.Collator("pt-BR", { numeric: true }).compare;
