/** Parses the arguments of scripts/seed.ts; throws with a readable message on bad input. */

/**
 * `empty`: the empty start (the demo accounts and the screens' configuration, no business data). `liveJobs`: the seeded
 * waiting and running jobs are left for the worker to process (the demo).
 */
export type SeedArgs = {
  scale: number;
  ifEmpty: boolean;
  empty: boolean;
  liveJobs: boolean;
  referenceDate?: Date;
  help: boolean;
};

/** The exit code of `seed --empty --if-empty` on a database holding data it did not write (server/demo.ts reads it). */
export const EXIT_REFUSED = 3;

export const SEED_USAGE =
  "Usage: tsx scripts/seed.ts [--scale N] [--if-empty] [--empty] [--live-jobs] [--reference YYYY-MM-DD]";

export function parseSeedArgs(argv: readonly string[]): SeedArgs {
  const args: SeedArgs = { scale: 1, ifEmpty: false, empty: false, liveJobs: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${name} needs a value. ${SEED_USAGE}`);
      return v;
    };
    switch (name) {
      case "--scale": {
        const text = value();
        const scale = Number(text);
        if (!/^\d*\.?\d+$/.test(text) || !Number.isFinite(scale) || scale <= 0 || scale > 100) {
          throw new Error(`--scale must be a number above 0 and at most 100 (got "${text}").`);
        }
        args.scale = scale;
        break;
      }
      case "--reference": {
        const text = value();
        const date = /^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T00:00:00Z`) : new Date(Number.NaN);
        if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
          throw new Error(`--reference must be a date as YYYY-MM-DD (got "${text}").`);
        }
        args.referenceDate = date;
        break;
      }
      case "--if-empty":
        args.ifEmpty = true;
        break;
      case "--empty":
        args.empty = true;
        break;
      case "--live-jobs":
        args.liveJobs = true;
        break;
      case "--help":
      case "-h":
        args.help = true;
        break;
      default:
        throw new Error(`Unknown argument "${arg}". ${SEED_USAGE}`);
    }
  }
  return args;
}
