import type { Random } from "./random";

/** Brazilian document numbers with correct check digits (CPF: 11 digits, CNPJ: 14 digits). */

function cpfCheckDigit(digits: number[]): number {
  const weightStart = digits.length + 1;
  const sum = digits.reduce((s, d, i) => s + d * (weightStart - i), 0);
  const r = (sum * 10) % 11;
  return r === 10 ? 0 : r;
}

export function cpfFromBase(base9: string): string {
  if (!/^\d{9}$/.test(base9)) throw new RangeError("a CPF base has 9 digits");
  const digits = [...base9].map(Number);
  digits.push(cpfCheckDigit(digits));
  digits.push(cpfCheckDigit(digits));
  return digits.join("");
}

export function isValidCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  return cpfFromBase(cpf.slice(0, 9)) === cpf;
}

export function randomCpf(random: Random): string {
  for (;;) {
    const cpf = cpfFromBase(random.digits(9));
    if (isValidCpf(cpf)) return cpf;
  }
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

function cnpjCheckDigit(digits: number[]): number {
  const weights = CNPJ_WEIGHTS.slice(CNPJ_WEIGHTS.length - digits.length);
  const r = digits.reduce((s, d, i) => s + d * weights[i], 0) % 11;
  return r < 2 ? 0 : 11 - r;
}

export function cnpjFromBase(base12: string): string {
  if (!/^\d{12}$/.test(base12)) throw new RangeError("a CNPJ base has 12 digits");
  const digits = [...base12].map(Number);
  digits.push(cnpjCheckDigit(digits));
  digits.push(cnpjCheckDigit(digits));
  return digits.join("");
}

export function isValidCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  return cnpjFromBase(cnpj.slice(0, 12)) === cnpj;
}

/** A company CNPJ: 8-digit root + branch 0001 + check digits. */
export function randomCnpj(random: Random): string {
  for (;;) {
    const cnpj = cnpjFromBase(`${random.digits(8)}0001`);
    if (isValidCnpj(cnpj)) return cnpj;
  }
}
