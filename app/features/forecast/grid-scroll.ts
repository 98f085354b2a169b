import type { ForecastGridPayload } from "./forecast-grid-rules";

/**
 * The grid opens scrolled sideways to its first editable month (the first forecast column), beside the pinned
 * columns, at any width: the actual months before it are a scroll to the left. The server's page does it with a small
 * script right after the grid (it runs before the grid hydrates, so the grid is never painted at the first month);
 * a grid rendered in the browser (a navigation within the portal) does it once mounted. Without JavaScript the grid
 * stays at its first column; a link to a cell (`#celula`) still scrolls to that cell.
 */

/** The id of the first editable month's column, or null when the window has no forecast month. */
export function firstEditableColumn(
  payload: Pick<ForecastGridPayload, "months" | "firstForecastIndex">,
): string | null {
  const key = payload.months[payload.firstForecastIndex];
  return key ? `m_${key}` : null;
}

/** Where `box` scrolls so that the column `id` is the first beside the pinned columns (null: no such column). */
export function columnScrollLeft(box: HTMLElement, id: string): number | null {
  const head = box.querySelector(`[data-column="${id}"]`);
  if (!head?.parentElement) return null;
  let pinned = 0;
  for (const cell of Array.from(head.parentElement.children))
    if (cell.classList.contains("is-pinned")) pinned += cell.getBoundingClientRect().width;
  const left = head.getBoundingClientRect().left - box.getBoundingClientRect().left - box.clientLeft + box.scrollLeft;
  return Math.max(0, left - pinned);
}

/** The page's script: columnScrollLeft written out, for the grid's scroll area just before it (document.currentScript). */
const SCRIPT_BODY =
  "var h=b&&b.querySelector('[data-column=\"'+i+'\"]');if(!h||!h.parentElement)return;var p=0;" +
  "[].forEach.call(h.parentElement.children,function(c){if(c.classList.contains('is-pinned'))p+=c.getBoundingClientRect().width});" +
  "b.scrollLeft=Math.max(0,h.getBoundingClientRect().left-b.getBoundingClientRect().left-b.clientLeft+b.scrollLeft-p);";

/** The script that scrolls the grid's box (the element before it) to the column `id` (a month's, `m_YYYY-MM`). */
export function scrollScript(id: string): string {
  const text = JSON.stringify(id).replace(/</g, "\\u003c");
  return `(function(b,i){${SCRIPT_BODY}})(document.currentScript.previousElementSibling,${text});`;
}

/** The same, in the browser: scrolls `box` to the column once (when the page's script has not already). */
export function scrollToColumn(box: HTMLElement | null, id: string | null): void {
  if (!box || !id || box.scrollLeft !== 0) return;
  const left = columnScrollLeft(box, id);
  if (left !== null) box.scrollLeft = left;
}
