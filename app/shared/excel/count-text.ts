import { formatCount } from "./values";

/**
 * A count and its noun in agreement, pt-BR: "1 linha OK", "2 linhas OK", "0 recusados", "1.234 linhas". One is
 * singular; every other number, zero included, plural (as Brazilian Portuguese says "0 linhas", not CLDR's "0 linha").
 * Every count text of uploads, jobs and the Excel round trips goes through here.
 */
export function countOf(n: number, singular: string, plural: string): string {
  return `${formatCount(n)} ${Math.abs(n) === 1 ? singular : plural}`;
}
