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
