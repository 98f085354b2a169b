/**
 * The name of the session cookie: the session module sets it, and the host reads its presence (a request from a
 * signed-in browser, whose answers are never cached) without loading the session machinery.
 */
export const SESSION_COOKIE_NAME = "__session";
