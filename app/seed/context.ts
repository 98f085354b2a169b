import type { Random } from "./random";

/** What every generator receives. All dates derive from `reference`, never from the clock. */
export type SeedContext = {
  random: Random;
  scale: number;
  /** The first day of the reference month, 00:00 UTC. */
  reference: Date;
  tenantId: string;
  bucket: string;
};

export const DAY_MS = 24 * 60 * 60 * 1000;

/** `base` volumes multiplied by the scale, never below `min`. */
export function scaled(ctx: Pick<SeedContext, "scale">, base: number, min = 1): number {
  return Math.max(min, Math.round(base * ctx.scale));
}

/** The first day of the month `offset` months from `date`'s month, 00:00 UTC. */
export function monthStart(date: Date, offset = 0): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + offset, 1));
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** A random instant within the `days` days before `end`. */
export function randomInstantBefore(random: Random, end: Date, days: number): Date {
  return new Date(end.getTime() - Math.floor(random.next() * days * DAY_MS));
}

export function yyyymmdd(date: Date): string {
  return date.toISOString().slice(0, 10).replace(/-/g, "");
}

/** ASCII, lower-case, dot-separated e-mail local part from a person's name. */
export function emailLocalPart(name: string): string {
  return name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z ]/g, "")
    .trim()
    .split(/\s+/)
    .join(".");
}
