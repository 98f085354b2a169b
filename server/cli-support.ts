/** What the operator's commands (server/cli*.ts) share: the usage error (exit code 2) and argument helpers. */

/** Wrong usage: the CLI prints the message and its usage, and exits 2. */
export class UsageError extends Error {}

/** The value of `--name value` or `--name=value`; undefined when absent. */
export function optionValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
  }
  return undefined;
}

/**
 * Splits arguments into options (`--name value` / `--name=value` for the names in `valued`, `-o` as `--out`) and
 * the rest (positional), refusing unknown options.
 */
export function splitArgs(
  args: readonly string[],
  valued: readonly string[],
): { options: Map<string, string>; positional: string[] } {
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] === "-o" ? "--out" : args[i];
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!valued.includes(name)) throw new UsageError(`unknown option ${name}`);
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === "") throw new UsageError(`${name} needs a value`);
    if (options.has(name)) throw new UsageError(`${name} given twice`);
    options.set(name, value);
  }
  return { options, positional };
}

/** A zod error as one line: "field: message; field: message". */
export function zodMessage(error: {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}): string {
  return error.issues
    .map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
}
