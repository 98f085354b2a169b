/**
 * `portal audit:verify [--from YYYY-MM-DD] [--to YYYY-MM-DD]`: recomputes the audit trail's hash chain over those UTC
 * days (the whole log by default) and names every altered, removed or inserted entry, one line each, then their count
 * (exit 1), or says how many entries verified and the last hash (exit 0), which an operator may keep elsewhere as an
 * anchor.
 * `portal audit:purge`: the retention job once, now (AUDIT_RETENTION_DAYS).
 */
import { auditRetentionCutoff, purgeExpiredAuditDays } from "../app/features/audit/retention.server";
import { AUDIT_PROBLEMS_LISTED, verifyAuditChain } from "../app/models/audit.server";
import { splitArgs, UsageError } from "./cli-support";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function dayOption(options: Map<string, string>, name: string): string | undefined {
  const value = options.get(name);
  if (value === undefined) return undefined;
  if (!DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new UsageError(`${name} expects a UTC day as YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

/** Runs audit:verify; answers the exit code (0 intact, 1 a problem found). */
export async function auditVerifyCommand(
  args: readonly string[],
  print: (line: string) => void,
  fail: (line: string) => void,
): Promise<number> {
  const { options, positional } = splitArgs(args, ["--from", "--to"]);
  if (positional.length > 0) throw new UsageError(`audit:verify takes no argument "${positional[0]}"`);
  const from = dayOption(options, "--from");
  const to = dayOption(options, "--to");
  if (from && to && from > to) throw new UsageError("--from must not be after --to");
  const started = Date.now();
  const result = await verifyAuditChain({ from, to });
  const took = `${Date.now() - started} ms`;
  if (!result.ok) {
    for (const { kind, day, seq, n, message } of result.problems) {
      fail(`audit:verify FAILED: ${kind} entry ${day}#${seq} (n ${n}): ${message}`);
    }
    const { altered, removed, inserted } = result.counts;
    const total = altered + removed + inserted;
    if (total > result.problems.length)
      fail(`… ${total - result.problems.length} more not listed (the first ${AUDIT_PROBLEMS_LISTED} are).`);
    fail(
      `${total} problem${total === 1 ? "" : "s"} (${altered} altered, ${removed} removed, ${inserted} inserted) in ` +
        `${result.read} entries read; ${result.checked} verified intact (${took}).`,
    );
    return 1;
  }
  if (result.checked === 0) {
    print(`audit:verify OK: no entries${from || to ? ` between ${from ?? "the start"} and ${to ?? "the end"}` : ""}.`);
    return 0;
  }
  print(`audit:verify OK: ${result.checked} entries from ${result.firstDay} to ${result.lastDay} verified (${took}).`);
  print(`Last hash: ${result.lastHash}`);
  return 0;
}

/** Runs audit:purge (the retention job once). */
export async function auditPurgeCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  if (args.length > 0) throw new UsageError(`audit:purge takes no argument "${args[0]}"`);
  const now = new Date();
  const removed = await purgeExpiredAuditDays(now);
  const cutoff = auditRetentionCutoff(now);
  print(
    removed.length === 0
      ? `audit:purge: nothing older than ${cutoff} to remove.`
      : `audit:purge: removed ${removed.length} day(s) before ${cutoff} (${removed[0]} … ${removed.at(-1)}); their final hashes are kept.`,
  );
  return 0;
}
