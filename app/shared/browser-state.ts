/**
 * What the portal keeps in the browser's localStorage, and its forgetting: the planning filter (spec 001 §2, §3
 * "formFilter") belongs to the person who generated it, so a signed-out page (after Logout, an expired session
 * or before anyone signs in) removes it and the next person on that browser never sees it.
 */
export const FORM_FILTER_KEY = "formFilter";

export function forgetSignedInState(): void {
  try {
    window.localStorage.removeItem(FORM_FILTER_KEY);
  } catch {
    // Storage disabled (private mode, policy): nothing was kept.
  }
}
