/** $bucketAuto: buckets of about equal size, with the granularity series mongod rounds boundaries to. */
import { compareValues } from "../bson-order";
import { MongoCommandError } from "../errors";
import { type Compiled, compileExpression, type Vars } from "../expressions";
import { type Doc, isPlainObject } from "../values";
import { type Accumulator, compileAccumulator } from "./accumulators";
import { Stage, type StageFactory } from "./stage";

/** Renard, E and 1-2-5 series used by $bucketAuto's granularity. */
const GRANULARITY_SERIES: Record<string, number[]> = {
  R5: [1.0, 1.6, 2.5, 4.0, 6.3],
  R10: [1.0, 1.25, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0],
  R20: [1.0, 1.12, 1.25, 1.4, 1.6, 1.8, 2.0, 2.24, 2.5, 2.8, 3.15, 3.55, 4.0, 4.5, 5.0, 5.6, 6.3, 7.1, 8.0, 9.0],
  R40: [
    1.0, 1.06, 1.12, 1.18, 1.25, 1.32, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.12, 2.24, 2.36, 2.5, 2.65, 2.8, 3.0, 3.15,
    3.35, 3.55, 3.75, 4.0, 4.25, 4.5, 4.75, 5.0, 5.3, 5.6, 6.0, 6.3, 6.7, 7.1, 7.5, 8.0, 8.5, 9.0, 9.5,
  ],
  R80: [
    1.0, 1.03, 1.06, 1.09, 1.12, 1.15, 1.18, 1.22, 1.25, 1.28, 1.32, 1.36, 1.4, 1.45, 1.5, 1.55, 1.6, 1.65, 1.7, 1.75,
    1.8, 1.85, 1.9, 1.95, 2.0, 2.06, 2.12, 2.18, 2.24, 2.3, 2.36, 2.43, 2.5, 2.58, 2.65, 2.72, 2.8, 2.9, 3.0, 3.07,
    3.15, 3.25, 3.35, 3.45, 3.55, 3.65, 3.75, 3.87, 4.0, 4.12, 4.25, 4.37, 4.5, 4.62, 4.75, 4.87, 5.0, 5.15, 5.3, 5.45,
    5.6, 5.8, 6.0, 6.15, 6.3, 6.5, 6.7, 6.9, 7.1, 7.3, 7.5, 7.75, 8.0, 8.25, 8.5, 8.75, 9.0, 9.25, 9.5, 9.75,
  ],
  "1-2-5": [1, 2, 5],
  E6: [1.0, 1.5, 2.2, 3.3, 4.7, 6.8],
  E12: [1.0, 1.2, 1.5, 1.8, 2.2, 2.7, 3.3, 3.9, 4.7, 5.6, 6.8, 8.2],
  E24: [
    1.0, 1.1, 1.2, 1.3, 1.5, 1.6, 1.8, 2.0, 2.2, 2.4, 2.7, 3.0, 3.3, 3.6, 3.9, 4.3, 4.7, 5.1, 5.6, 6.2, 6.8, 7.5, 8.2,
    9.1,
  ],
  E48: [
    1.0, 1.05, 1.1, 1.15, 1.21, 1.27, 1.33, 1.4, 1.47, 1.54, 1.62, 1.69, 1.78, 1.87, 1.96, 2.05, 2.15, 2.26, 2.37, 2.49,
    2.61, 2.74, 2.87, 3.01, 3.16, 3.32, 3.48, 3.65, 3.83, 4.02, 4.22, 4.42, 4.64, 4.87, 5.11, 5.36, 5.62, 5.9, 6.19,
    6.49, 6.81, 7.15, 7.5, 7.87, 8.25, 8.66, 9.09, 9.53,
  ],
};

type Rounder = { up: (x: number) => number; down: (x: number) => number };

export function granularityRounder(name: string): Rounder {
  if (name === "POWERSOF2") {
    return {
      up: (x) => (x === 0 ? 0 : 2 ** (Math.floor(Math.log2(x)) + 1)),
      down: (x) =>
        x === 0 ? 0 : Number.isInteger(Math.log2(x)) ? 2 ** (Math.log2(x) - 1) : 2 ** Math.floor(Math.log2(x)),
    };
  }
  const series = GRANULARITY_SERIES[name];
  if (!series) throw new MongoCommandError(40257, `Rounding granularity not recognized: ${name}`);
  // The series scaled by powers of ten: up is the smallest value greater than x, down the largest less than x.
  const at = (x: number) => {
    const exp = Math.floor(Math.log10(x));
    return { exp, mantissa: x / 10 ** exp };
  };
  const eps = 1e-9;
  return {
    up(x) {
      if (x === 0) return 0;
      const { exp, mantissa } = at(x);
      for (const v of series) if (v > mantissa + eps) return Number((v * 10 ** exp).toPrecision(15));
      return Number((series[0] * 10 ** (exp + 1)).toPrecision(15));
    },
    down(x) {
      if (x === 0) return 0;
      const { exp, mantissa } = at(x);
      for (let i = series.length - 1; i >= 0; i--)
        if (series[i] < mantissa - eps) return Number((series[i] * 10 ** exp).toPrecision(15));
      return Number((series[series.length - 1] * 10 ** (exp - 1)).toPrecision(15));
    },
  };
}

/** $bucketAuto: values sorted, buckets of about n / buckets documents, equal values kept together (as mongod does). */
export class BucketAutoStage extends Stage {
  private readonly key: Compiled;
  private readonly buckets: number;
  private readonly accs: Accumulator[];
  private readonly rounder: Rounder | undefined;
  private readonly entries: { key: unknown; doc: Doc; pos: number }[] = [];
  constructor(
    spec: unknown,
    private readonly vars: Vars,
  ) {
    super();
    if (!isPlainObject(spec))
      throw new MongoCommandError(
        40240,
        `The argument to $bucketAuto must be an object, but found type: ${typeof spec}`,
      );
    let key: Compiled | undefined;
    let buckets: number | undefined;
    let output: Doc | undefined;
    let rounder: Rounder | undefined;
    for (const [name, arg] of Object.entries(spec)) {
      if (name === "groupBy") {
        const isExprObject = isPlainObject(arg) && Object.keys(arg).length > 0 && Object.keys(arg)[0].startsWith("$");
        const isPath = typeof arg === "string" && arg.length > 1 && arg.startsWith("$");
        if (!isExprObject && !isPath)
          throw new MongoCommandError(
            40239,
            `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: ${JSON.stringify(arg)}`,
          );
        key = compileExpression(arg);
      } else if (name === "buckets") {
        if (typeof arg !== "number")
          throw new MongoCommandError(
            40241,
            `The $bucketAuto 'buckets' field must be a numeric value, but found type: ${typeof arg}`,
          );
        if (!Number.isInteger(arg) || Math.abs(arg) > 0x7fffffff)
          throw new MongoCommandError(
            40242,
            `The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found ${arg}`,
          );
        buckets = arg;
      } else if (name === "output") {
        if (!isPlainObject(arg))
          throw new MongoCommandError(
            40244,
            `The $bucketAuto 'output' field must be an object, but found type: ${typeof arg}`,
          );
        output = arg;
      } else if (name === "granularity") {
        if (typeof arg !== "string")
          throw new MongoCommandError(
            40261,
            `The $bucketAuto 'granularity' field must be a string, but found type: ${typeof arg}`,
          );
        rounder = granularityRounder(arg);
      } else {
        throw new MongoCommandError(40245, `Unrecognized option to $bucketAuto: ${name}`);
      }
    }
    if (!key || buckets === undefined)
      throw new MongoCommandError(40246, "$bucketAuto requires 'groupBy' and 'buckets' to be specified");
    if (buckets <= 0)
      throw new MongoCommandError(
        40243,
        `The $bucketAuto 'buckets' field must be greater than 0, but found: ${buckets}`,
      );
    this.key = key;
    this.buckets = buckets;
    this.rounder = rounder;
    this.accs = Object.entries(output ?? { count: { $sum: 1 } }).map(([k, v]) => compileAccumulator(k, v));
  }
  push(doc: Doc): boolean {
    let key = this.key(doc, this.vars);
    if (this.rounder) {
      if (typeof key !== "number")
        throw new MongoCommandError(
          40258,
          `$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a value with type: ${key === undefined || key === null ? "null" : typeof key}`,
        );
      if (Number.isNaN(key))
        throw new MongoCommandError(
          40259,
          "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN",
        );
      if (key < 0)
        throw new MongoCommandError(
          40260,
          "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number",
        );
    }
    if (key === undefined) key = null;
    this.entries.push({ key, doc, pos: this.entries.length });
    return true;
  }
  end(): void {
    const sorted = this.entries.sort((a, b) => compareValues(a.key, b.key) || a.pos - b.pos);
    const n = sorted.length;
    const approx = Math.max(1, Math.round(n / this.buckets));
    let i = 0;
    let previousMax: unknown;
    let hasPrevious = false;
    for (let bucketNum = 1; bucketNum <= this.buckets && i < n; bucketNum++) {
      const states = this.accs.map((a) => a.init());
      const add = (e: { key: unknown; doc: Doc }) => {
        for (let k = 0; k < this.accs.length; k++) states[k] = this.accs[k].step(states[k], e.doc, this.vars);
      };
      const first = sorted[i];
      let min: unknown = first.key;
      let max: unknown = first.key;
      if (this.rounder) min = hasPrevious ? previousMax : this.rounder.down(first.key as number);
      add(first);
      i++;
      const last = bucketNum === this.buckets;
      for (let count = 1; i < n && (count < approx || last); count++, i++) {
        add(sorted[i]);
        max = sorted[i].key;
      }
      if (this.rounder) {
        const boundary = this.rounder.up(max as number);
        while (i < n && (compareValues(boundary, sorted[i].key) > 0 || compareValues(max, sorted[i].key) === 0)) {
          add(sorted[i]);
          max = sorted[i].key;
          i++;
        }
        max = boundary === 0 && i < n ? this.rounder.down(sorted[i].key as number) : boundary;
      } else {
        while (i < n && compareValues(max, sorted[i].key) === 0) {
          add(sorted[i]);
          i++;
        }
        if (i < n) max = sorted[i].key;
      }
      previousMax = max;
      hasPrevious = true;
      const out: Doc = { _id: { min, max } };
      for (let k = 0; k < this.accs.length; k++) {
        const v = this.accs[k].finish(states[k]);
        out[this.accs[k].field] = v === undefined ? null : v;
      }
      if (!this.next.push(out)) break;
    }
    this.next.end();
  }
}

export const bucketAutoStage: StageFactory = ({ arg, vars }) => new BucketAutoStage(arg, vars);
