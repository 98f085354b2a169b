/**
 * CPF display (spec 001 §5: "CPF is always masked"). Only the middle six digits are shown, in the usual
 * punctuation: 123.456.789-09 → ***.456.789-**. The server masks before anything leaves the model, so the
 * unmasked number never reaches the browser.
 */

/** What a CPF that is not 11 digits shows: nothing of it. */
export const MASKED_CPF_UNKNOWN = "***.***.***-**";

export function maskCpf(cpf: string | null | undefined): string {
  const digits = String(cpf ?? "").replace(/\D/g, "");
  if (digits.length !== 11) return MASKED_CPF_UNKNOWN;
  return `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**`;
}

const MASKED = /^\*{3}\.(?:\d{3}|\*{3})\.(?:\d{3}|\*{3})-\*{2}$/;

/** A field that holds a CPF, by its name (cpf, CPF do colaborador, cpf_titular …). */
export const CPF_FIELD = /cpf/i;

/**
 * A value of a CPF field as every screen shows it: masked, and left as it is when it already is (masking twice
 * must not hide the middle digits). A number is a CPF whose leading zeros were lost; null and undefined stay empty.
 */
export function maskCpfValue(value: unknown): unknown {
  if (value === null || value === undefined) return value;
  if (typeof value === "string" && MASKED.test(value)) return value;
  if (typeof value === "number" && Number.isInteger(value) && value >= 0)
    return maskCpf(String(value).padStart(11, "0"));
  return maskCpf(String(value));
}

/** A number that may be a CPF whose leading zeros were lost (a count or a sum is never this large under a CPF name). */
const CPF_AS_NUMBER_MIN = 100_000_000;

/**
 * A cell of a column named like a CPF (a chart's field, a workbook's column): a text or a CPF-sized number masked;
 * anything else (a count, a flag, nothing) left as it is.
 */
export function maskCpfCell<T>(value: T): T | string {
  if (typeof value === "string") return maskCpfValue(value) as string;
  if (typeof value === "number" && Math.abs(value) >= CPF_AS_NUMBER_MIN) return maskCpfValue(Math.abs(value)) as string;
  return value;
}

/**
 * A CPF inside a text, in the shapes people and files write it: 529.982.247-25, 52998224725 (also inside a name such
 * as folha_52998224725.xlsx), 529982247-25 and 529 982 247 25; never a part of a longer number. Group 1 is the
 * character before it.
 */
const CPF_IN_TEXT = /(^|\D)(\d{3}[. \u00a0-]?\d{3}[. \u00a0-]?\d{3}[. \u00a0-]?\d{2})(?!\d)/g;

/** A text with every CPF in it masked. */
export function maskCpfsInText(text: string): string {
  return text.replace(CPF_IN_TEXT, (_match, before: string, cpf: string) => `${before}${maskCpf(cpf)}`);
}
