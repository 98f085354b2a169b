import { useEffect } from "react";
import { filterPath } from "./forecast-filter";

/**
 * The review filter's choices in its address as they are made, so that a bookmark, a reload and "Salvar visão" keep
 * them: the browser's entry is replaced in place (no new entry, no request, nothing read again), the way the filter's
 * own GET would write them. Without JavaScript the filter's "Aplicar escolhas" button writes them.
 */
export function useChoicesInAddress(rf: string, costCenter: string): void {
  useEffect(() => {
    const href = filterPath({ rf, cost_center_concat: costCenter });
    if (`${window.location.pathname}${window.location.search}` !== href)
      window.history.replaceState(window.history.state, "", href);
  }, [rf, costCenter]);
}
