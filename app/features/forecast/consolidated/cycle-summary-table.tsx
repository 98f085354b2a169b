import { formatPercent } from "~/shared/numbers";
import { shownLabel } from "../cycle/texts";
import { displayShares, type SummaryRow } from "./cycle-summary";
import { consolidatedTexts as t } from "./texts";

/** The cycle per area and for the company: cost centres per state and each state's share of the year's total. */
export function CycleSummaryTable({ rows, rf }: { rows: readonly SummaryRow[]; rf: string }) {
  if (rows.length === 0) return null;
  const codes = rows[0].states.map((s) => s.code);
  return (
    <div className="consolidated__scroll consolidated__summary" role="region" aria-label={t.cycleTitle} tabIndex={0}>
      <table className="consolidated__table">
        <caption>{t.cycleCaption(rf)}</caption>
        <thead>
          <tr>
            <th scope="col">{t.areaColumn}</th>
            {codes.map((code) => (
              <th key={code} scope="col" className="consolidated__num">
                {shownLabel(code)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const shares = displayShares(row.states.map((s) => s.share));
            return (
              <tr key={row.area ?? ""} className={row.area === null ? "consolidated__row--company" : undefined}>
                <th scope="row">{row.area === null ? t.companyRow : row.area || t.noArea}</th>
                {row.states.map((s, i) => (
                  <td key={s.code} className="consolidated__num" data-state={s.code}>
                    {t.stateCell(s.count, shares[i] === null ? t.dash : formatPercent(shares[i]!))}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
