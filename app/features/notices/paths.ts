/** The notices' addresses (browser-safe: the pages link to them). */
export const NOTICES_PATH = "/user/notices";
export const SETTINGS_PATH = "/user/settings";
