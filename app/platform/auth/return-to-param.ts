/** The login page's parameter and the login form's field with the page asked for before signing in (return-to.server.ts). */
export const RETURN_TO_PARAM = "redirectTo";
/** Longest such address kept; a longer one is no return (the user lands on their page instead). */
export const RETURN_TO_MAX = 2048;
