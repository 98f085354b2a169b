/** The subscriptions page (browser-safe: the subscribe forms of other screens post to it). */
export const SUBSCRIPTIONS_PATH = "/user/subscriptions";
