import { useEffect, useRef, useState } from "react";
import { checkQuantity } from "./planning-values";
import type { ResultRow, ResultsView } from "./results.server";

/** An individual edit: the typed text, for the revision of the row it was typed on. */
type Edit = { value: string; revision: number };

export type Edits = ReturnType<typeof useEdits>;

/**
 * The quantities typed on the results page: what each row shows, which rows changed, which are invalid. `datasetKey`
 * names the data shown (page, filter, preview): a new one starts unedited.
 */
export function useEdits(data: ResultsView, echoed: Record<string, string> | undefined, datasetKey: string) {
  // A refused save without JavaScript comes back with what was typed: the page starts from it.
  const [edits, setEdits] = useState<Map<string, Edit>>(() => {
    const initial = new Map<string, Edit>();
    for (const row of data.rows)
      if (echoed?.[row.id] !== undefined) initial.set(row.id, { value: echoed[row.id], revision: row.revision });
    return initial;
  });
  // A new page, filter or preview starts unedited.
  const shown = useRef(datasetKey);
  useEffect(() => {
    if (shown.current === datasetKey) return;
    shown.current = datasetKey;
    setEdits(new Map());
  }, [datasetKey]);
  // An edit made on an older revision of its row (saved since, by us or someone else) no longer applies.
  const live = new Map([...edits].filter(([id, e]) => data.rows.some((r) => r.id === id && r.revision === e.revision)));
  const changed = data.rows.filter((r) => {
    const e = live.get(r.id);
    return e !== undefined && e.value.trim() !== String(r.valor);
  });
  const invalid = new Set(
    data.rows.filter((r) => live.has(r.id) && !checkQuantity(live.get(r.id)!.value).ok).map((r) => r.id),
  );
  return {
    valueOf: (row: ResultRow) => live.get(row.id)?.value ?? String(row.valor),
    set: (row: ResultRow, value: string) => setEdits((m) => new Map(m).set(row.id, { value, revision: row.revision })),
    clear: () => setEdits(new Map()),
    changed,
    invalid,
  };
}
