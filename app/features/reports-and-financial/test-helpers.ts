import type { Db } from "mongodb";
import { applyIndexes } from "~/models/all-indexes.server";
import { LEDGER, LEDGER_ACCOUNTS } from "~/models/ledger.server";
import { monthStart, type SeedContext } from "~/seed/context";
import { generateLedger, generateLedgerAccounts } from "~/seed/ledger";
import { Random } from "~/seed/random";

/** The reference month of the report tests' ledgers (the ledger covers the 24 months before it). */
export const REFERENCE = new Date("2026-03-01T00:00:00Z");
export const LAST_CLOSED = monthStart(REFERENCE, -1);

export function seedContext(): SeedContext {
  return {
    random: new Random(7, "reports-test"),
    scale: 0.01,
    reference: REFERENCE,
    tenantId: "acme",
    bucket: "local",
  };
}

/** Writes the seeded chart of accounts and ledger into `db`; returns the ledger rows. */
export async function seedLedger(db: Db) {
  await applyIndexes(db);
  const accounts = generateLedgerAccounts();
  const ledger = [...generateLedger(seedContext())];
  await db.collection(LEDGER_ACCOUNTS).insertMany(accounts as never[]);
  await db.collection(LEDGER).insertMany(ledger);
  return { accounts, ledger };
}

/** pt-BR with 2 decimals, as the documents print amounts. */
export const ptBr = (n: number) => {
  const [int, dec] = Math.abs(n).toFixed(2).split(".");
  return `${n < 0 ? "-" : ""}${int.replace(/\B(?=(\d{3})+(?!\d))/g, ".")},${dec}`;
};
