import { Link } from "@remix-run/react";
import { Alert } from "~/shared/ui/alert";
import { monthSpan } from "../grid-texts";
import type { ActualNote } from "./comparison";
import { consolidatedTexts as t } from "./texts";

/**
 * Above the tree, what its comparison columns compare: the actuals of another year month by month, the months both
 * sides cover when fewer than the year's (the headers say them too), and "vs Realizado" of a year without actuals yet
 * with a link to the last year that has them.
 */
export function ComparisonNotes({
  page,
}: {
  page: {
    year: number;
    months: readonly { key: string }[];
    compareLabel: string | null;
    compareYear?: number;
    common?: readonly number[];
    actualNote?: ActualNote | null;
    query: { cols: readonly string[] };
  };
}) {
  const { actualNote: note, common = [], compareYear = page.year } = page;
  const partly = page.compareLabel !== null && common.length > 0 && common.length < page.months.length;
  return (
    <>
      {note ? (
        <Alert tone="info">
          {t.noActuals(note.year)}{" "}
          {note.href && note.lastYear !== null ? (
            <Link to={note.href}>{t.compareActualsOf(note.lastYear)}</Link>
          ) : (
            t.noActualsAtAll
          )}
        </Alert>
      ) : null}
      {page.compareLabel !== null && compareYear !== page.year ? (
        <p className="consolidated__note">{t.actualsOfYear(compareYear, page.year)}</p>
      ) : null}
      {partly && page.query.cols.includes("total") ? (
        <p className="consolidated__note">
          {t.sameMonths(monthSpan(common.map((i) => page.months[i].key)), page.year)}
        </p>
      ) : null}
    </>
  );
}
