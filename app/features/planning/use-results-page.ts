import { type Blocker, useBeforeUnload, useBlocker, useLocation, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { toFormFilter } from "./planning-values";
import type { ResultRow, ResultsActionData, ResultsView } from "./results.server";
import { BATCH_PARAMS, DIALOG_PARAMS, FORM_FILTER_KEY, type PlanningScreen, searchWithout } from "./screens";

/** The addresses of the results page's steps, and whether its data is loading or a save is on its way. */
export function useResultsNavigation(screen: PlanningScreen, data: ResultsView) {
  const location = useLocation();
  const navigation = useNavigation();
  const here = location.pathname;
  const withoutDialogs = `${here}${searchWithout(location.search, DIALOG_PARAMS)}`;
  return {
    // Loading this screen's data (a page, a filter, a preview, a save's reload) — not merely opening a dialog.
    loading:
      navigation.state === "loading" &&
      navigation.location.pathname === here &&
      searchWithout(navigation.location.search, DIALOG_PARAMS) !== searchWithout(location.search, DIALOG_PARAMS),
    saving: navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST",
    /** The data shown, without dialogs: what the edits belong to. */
    withoutDialogs,
    /** The grid without dialogs or a preview. */
    clean: `${here}${searchWithout(location.search, [...DIALOG_PARAMS, ...BATCH_PARAMS])}`,
    filterHref: `${screen.filterPath}?${data.filterQuery}`,
    groupEditHref: `${here}${searchWithout(location.search, [...DIALOG_PARAMS, ...BATCH_PARAMS], { groupEdit: "1" })}`,
    /** What the group-edit form keeps of the URL (it starts again at the first page). */
    groupKept: [
      ...new URLSearchParams(searchWithout(location.search, [...DIALOG_PARAMS, ...BATCH_PARAMS, "page"])).entries(),
    ],
    historyHref: (row: ResultRow) => `${here}${searchWithout(location.search, DIALOG_PARAMS, { history: row.id })}`,
    locationKey: location.key,
  };
}

export type ResultsNavigation = ReturnType<typeof useResultsNavigation>;

/** The planning filter stays in the browser too (spec 001 §2, formFilter), whichever way this page was reached. */
export function useKeptFilter(screen: PlanningScreen, data: ResultsView) {
  const keptFilter = screen.kind === "plan" ? JSON.stringify(toFormFilter(data.filter, data.skuMode)) : null;
  useEffect(() => {
    if (keptFilter !== null) window.localStorage.setItem(FORM_FILTER_KEY, keptFilter);
  }, [keptFilter]);
}

/**
 * The save's confirmation, open for the data and reply it was opened on: a reload (after a save, or a refusal) or a
 * new reply closes it, its work done.
 */
export function useConfirming(data: ResultsView, actionData: ResultsActionData | undefined) {
  const [confirmingOn, setConfirmingOn] = useState<{ loadedAt: unknown; actionData: unknown } | null>(null);
  const confirming = confirmingOn?.loadedAt === data.loadedAt && confirmingOn.actionData === actionData;
  const setConfirming = (open: boolean) => setConfirmingOn(open ? { loadedAt: data.loadedAt, actionData } : null);
  return [confirming, setConfirming] as const;
}

/** Typed quantities are not lost silently: leaving this page's data (another page, filter or address) asks first. */
export function useLeaveGuard(dirty: boolean): Blocker {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty &&
      (currentLocation.pathname !== nextLocation.pathname ||
        searchWithout(currentLocation.search, DIALOG_PARAMS) !== searchWithout(nextLocation.search, DIALOG_PARAMS)),
  );
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
  );
  return blocker;
}
