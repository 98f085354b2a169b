import { BUSINESS_UNITS, type BusinessUnitId } from "~/models/financial.server";
import { type Category1, type LedgerAccount, type LedgerRow, round2 } from "~/models/ledger.server";
import { addMonthsToDate } from "~/shared/months";
import { monthStart, type SeedContext } from "./context";

/**
 * The seeded chart of accounts and ledger. Fixed volumes at every scale: 5 units × 35 accounts ×
 * 24 months (9311: 12), 3,780 rows, are what the screens read; scaling them would only repeat accounts.
 */

type AccountSpec = [
  code: string,
  category3: string,
  typical: number,
  flags?: { wc?: boolean; fiscal?: boolean; negative?: boolean },
];
type GroupSpec = { category1: Category1; category2: string; accounts: AccountSpec[]; wc?: boolean };

const CHART: GroupSpec[] = [
  {
    category1: "Current Assets",
    category2: "Cash and Equivalents",
    accounts: [
      ["1.1.01.001", "Cash on Hand", 180_000],
      ["1.1.01.002", "Bank Accounts", 4_200_000],
      ["1.1.01.003", "Short-term Investments", 9_500_000],
    ],
  },
  {
    category1: "Current Assets",
    category2: "Trade Receivables",
    wc: true,
    accounts: [
      ["1.1.02.001", "Customers", 12_400_000],
      ["1.1.02.002", "Credit Card Receivables", 3_100_000],
      ["1.1.02.003", "Allowance for Doubtful Accounts", 620_000, { negative: true }],
    ],
  },
  {
    category1: "Current Assets",
    category2: "Inventories",
    wc: true,
    accounts: [
      ["1.1.03.001", "Finished Goods", 8_700_000],
      ["1.1.03.002", "Goods in Transit", 1_900_000],
      ["1.1.03.003", "Raw Materials", 2_600_000],
    ],
  },
  {
    category1: "Current Assets",
    category2: "Recoverable Taxes",
    wc: true,
    accounts: [
      ["1.1.04.001", "ICMS Recoverable", 1_350_000, { fiscal: true }],
      ["1.1.04.002", "PIS/COFINS Recoverable", 980_000, { fiscal: true }],
      ["1.1.04.003", "Income Tax Prepayments", 450_000, { fiscal: true }],
    ],
  },
  {
    category1: "No-current Assets",
    category2: "Long-term Receivables",
    accounts: [
      ["1.2.01.001", "Judicial Deposits", 2_100_000, { fiscal: true }],
      ["1.2.01.002", "Deferred Income Tax", 3_400_000, { fiscal: true }],
    ],
  },
  {
    category1: "No-current Assets",
    category2: "Property, Plant and Equipment",
    accounts: [
      ["1.2.02.001", "Buildings", 18_000_000],
      ["1.2.02.002", "Machinery and Equipment", 11_500_000],
      ["1.2.02.003", "Solar Plants", 26_000_000],
      ["1.2.02.004", "Accumulated Depreciation", 14_200_000, { negative: true }],
    ],
  },
  {
    category1: "No-current Assets",
    category2: "Intangible Assets",
    accounts: [
      ["1.2.03.001", "Software", 2_300_000],
      ["1.2.03.002", "Goodwill", 7_800_000],
    ],
  },
  {
    category1: "Current Liabilities",
    category2: "Suppliers",
    wc: true,
    accounts: [
      ["2.1.01.001", "Domestic Suppliers", 9_800_000],
      ["2.1.01.002", "Foreign Suppliers", 2_700_000],
    ],
  },
  {
    category1: "Current Liabilities",
    category2: "Payroll and Charges",
    wc: true,
    accounts: [
      ["2.1.02.001", "Salaries Payable", 2_200_000],
      ["2.1.02.002", "Vacation and 13th Salary Provisions", 1_600_000],
    ],
  },
  {
    category1: "Current Liabilities",
    category2: "Taxes Payable",
    wc: true,
    accounts: [
      ["2.1.03.001", "ICMS Payable", 1_450_000],
      ["2.1.03.002", "Income Tax Payable", 900_000],
    ],
  },
  {
    category1: "Current Liabilities",
    category2: "Short-term Loans",
    accounts: [["2.1.04.001", "Bank Loans", 5_300_000]],
  },
  {
    category1: "No-current Liabilities",
    category2: "Long-term Loans",
    accounts: [
      ["2.2.01.001", "Debentures", 15_000_000],
      ["2.2.01.002", "BNDES Financing", 8_400_000],
    ],
  },
  {
    category1: "No-current Liabilities",
    category2: "Provisions",
    accounts: [
      ["2.2.02.001", "Labor Contingencies", 1_700_000],
      ["2.2.02.002", "Tax Contingencies", 2_500_000],
    ],
  },
  {
    category1: "Equity",
    category2: "Share Capital",
    accounts: [["2.3.01.001", "Subscribed Capital", 30_000_000]],
  },
  {
    category1: "Equity",
    category2: "Reserves",
    accounts: [
      ["2.3.02.001", "Legal Reserve", 2_400_000],
      ["2.3.02.002", "Profit Reserve", 6_100_000],
    ],
  },
  {
    category1: "Equity",
    category2: "Retained Earnings",
    accounts: [["2.3.03.001", "Retained Earnings", 0]],
  },
];

/** The account whose balance makes assets equal liabilities plus equity every month. */
const BALANCING_ACCOUNT = "2.3.03.001";

export function generateLedgerAccounts(): LedgerAccount[] {
  let order = 0;
  return CHART.flatMap((group) =>
    group.accounts.map(([code, category3, , flags]) => ({
      _id: code,
      description: `${code} - ${category3}`,
      category1: group.category1,
      category2: group.category2,
      category3,
      workingCapital: Boolean(group.wc ?? flags?.wc),
      fiscal: Boolean(flags?.fiscal),
      order: ++order,
    })),
  );
}

/** How large each unit is, relative to the chart's typical balances. */
const UNIT_SIZE: Record<BusinessUnitId, number> = { "2236": 1, "4313": 0.62, "4664": 0.35, "5454": 1.45, "9311": 0.18 };
/** Months of ledger per unit: 24, except 9311, acquired a year ago (its earlier statements do not exist). */
export const LEDGER_MONTHS = 24;
const UNIT_MONTHS: Partial<Record<BusinessUnitId, number>> = { "9311": 12 };

/** The months the ledger covers: the 24 closed months before the reference month. */
export function ledgerMonths(reference: Date): Date[] {
  const first = monthStart(reference, -LEDGER_MONTHS);
  return Array.from({ length: LEDGER_MONTHS }, (_, i) => addMonthsToDate(first, i));
}

export function* generateLedger(ctx: SeedContext): Generator<LedgerRow> {
  const random = ctx.random.fork("ledger");
  const months = ledgerMonths(ctx.reference);
  const accounts = CHART.flatMap((g) => g.accounts.map((a) => ({ group: g, spec: a })));
  for (const unit of BUSINESS_UNITS) {
    const size = UNIT_SIZE[unit];
    const kept = UNIT_MONTHS[unit] ?? LEDGER_MONTHS;
    // 36 months of balances so the first ledger year has its prior year too.
    const series = new Map<string, number[]>();
    for (const { group, spec } of accounts) {
      const [code, , typical, flags] = spec;
      if (code === BALANCING_ACCOUNT) continue;
      const r = random.fork(`${unit}/${code}`);
      let level = typical * size * (0.85 + r.next() * 0.3);
      const values: number[] = [];
      for (let i = 0; i < LEDGER_MONTHS + 12; i++) {
        const season = group.wc ? 1 + 0.06 * Math.sin(((i % 12) / 12) * 2 * Math.PI) : 1;
        level *= 1 + (r.next() - 0.47) * 0.05;
        values.push(round2(level * season * (flags?.negative ? -1 : 1)));
      }
      series.set(code, values);
    }
    const balancing: number[] = [];
    for (let i = 0; i < LEDGER_MONTHS + 12; i++) {
      let assets = 0;
      let claims = 0;
      for (const { group, spec } of accounts) {
        const value = series.get(spec[0])?.[i] ?? 0;
        if (group.category1.endsWith("Assets")) assets += value;
        else claims += value;
      }
      balancing.push(round2(assets - claims));
    }
    series.set(BALANCING_ACCOUNT, balancing);
    const forecastRandom = random.fork(`${unit}/forecast`);
    const idRandom = random.fork(`${unit}/ids`);
    for (let m = LEDGER_MONTHS - kept; m < LEDGER_MONTHS; m++) {
      for (const { spec } of accounts) {
        const values = series.get(spec[0]) ?? [];
        const actual = values[m + 12];
        yield {
          _id: idRandom.objectId(addMonthsToDate(months[m], 1)),
          businessUnitID: unit,
          account: spec[0],
          month: months[m],
          actual,
          priorYear: values[m],
          forecast: round2(actual * (0.95 + forecastRandom.next() * 0.1)),
        };
      }
    }
  }
}
