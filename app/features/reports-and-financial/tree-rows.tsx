import { useCallback, useState } from "react";
import { reportsTexts as t } from "~/messages";
import { useHydrated } from "~/shared/ui/use-hydrated";

/**
 * Expandable tree rows (the cockpit's categories, the FP&A report's steps): every row is in the page (without
 * JavaScript the whole tree shows); with it, a category's toggle hides or shows what lies under it.
 */
export function useCollapsedRows() {
  const [keys, setKeys] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (key: string) =>
      setKeys((current) => {
        const next = new Set(current);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    [],
  );
  return { keys, toggle };
}

type TreeItem = { key: string; parentKey: string | null };

/** False when an ancestor of `row` is collapsed. */
export function visibleInTree(row: TreeItem, rows: readonly TreeItem[], collapsed: ReadonlySet<string>): boolean {
  const byKey = new Map(rows.map((r) => [r.key, r]));
  for (let parent = row.parentKey; parent; parent = byKey.get(parent)?.parentKey ?? null) {
    if (collapsed.has(parent)) return false;
  }
  return true;
}

/** A category's expand/collapse button (only once the page's script runs: without it the tree stays open). */
export function TreeToggle({ label, open, onToggle }: { label: string; open: boolean; onToggle: () => void }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="tree-toggle"
      aria-expanded={open}
      aria-label={open ? t.collapse(label) : t.expand(label)}
      onClick={onToggle}
    >
      {open ? "▾" : "▸"}
    </button>
  );
}
