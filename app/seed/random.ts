import { ObjectId } from "mongodb";

/**
 * A small deterministic PRNG (sfc32) and helpers for the demo data. Every generator gets its own
 * stream, derived from the base seed and a label, so changing one collection's generator does not
 * shift the documents of the others.
 */

export const DEFAULT_SEED = 20260101;

/** 32-bit FNV-1a hash of a string, used to derive stream seeds from labels. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** What this stream was seeded with: `derive` starts from it, whatever the stream has drawn since. */
  private readonly origin: number;

  constructor(seed: number, label = "") {
    this.origin = (seed ^ hashString(label)) >>> 0;
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = (seed ^ hashString(label)) >>> 0;
    // Discard the first outputs: sfc32 mixes poorly right after seeding.
    for (let i = 0; i < 15; i++) this.nextUint32();
  }

  /** A new independent stream for a sub-generator. */
  fork(label: string): Random {
    return new Random(this.nextUint32(), label);
  }

  /**
   * A stream that depends only on this stream's seed and `label`, and draws nothing from this one: for work done
   * in no fixed order (the stored files, rendered a few at a time beside the database writes).
   */
  derive(label: string): Random {
    return new Random(this.origin, `derive/${label}`);
  }

  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    if (max < min) throw new RangeError(`int(${min}, ${max}): max is below min`);
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A number in [min, max) rounded to `decimals` places. */
  decimal(min: number, max: number, decimals = 2): number {
    const f = 10 ** decimals;
    return Math.round((min + this.next() * (max - min)) * f) / f;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick() from an empty list");
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[[value, weight], …]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [value, weight] of entries) {
      r -= weight;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** `count` distinct items, in a random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }

  /** Digits as a string, e.g. digits(6) → "041239". */
  digits(length: number): string {
    let s = "";
    for (let i = 0; i < length; i++) s += String(this.int(0, 9));
    return s;
  }

  hex(length: number): string {
    let s = "";
    for (let i = 0; i < length; i++) s += (this.nextUint32() & 15).toString(16);
    return s;
  }

  /** A random-looking but reproducible UUID (version 4 layout). */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }

  /**
   * A reproducible ObjectId. Its timestamp part is `at` (so _id order follows creation time, as real
   * ids do); the remaining 8 bytes come from the stream.
   */
  objectId(at: Date): ObjectId {
    const bytes = new Uint8Array(12);
    const seconds = Math.max(0, Math.floor(at.getTime() / 1000));
    bytes[0] = (seconds >>> 24) & 0xff;
    bytes[1] = (seconds >>> 16) & 0xff;
    bytes[2] = (seconds >>> 8) & 0xff;
    bytes[3] = seconds & 0xff;
    const r1 = this.nextUint32();
    const r2 = this.nextUint32();
    for (let i = 0; i < 4; i++) {
      bytes[4 + i] = (r1 >>> (8 * (3 - i))) & 0xff;
      bytes[8 + i] = (r2 >>> (8 * (3 - i))) & 0xff;
    }
    return new ObjectId(bytes);
  }
}
