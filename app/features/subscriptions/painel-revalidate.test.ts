import { describe, expect, it } from "vitest";
import { shouldRevalidate } from "~/routes/ij.painel.$id";
import { SUBSCRIPTIONS_PATH } from "./paths";

/**
 * /ij/painel/{id} keeps an open dashboard when another form posts, but "Assinar" must show the new state once the
 * subscription's post returns to the page: without it the button stayed "Assinar" and a second click subscribed again.
 */

type Args = Parameters<typeof shouldRevalidate>[0];
const PAGE = new URL("http://localhost/ij/painel/1");
const args = (over: Partial<Args>): Args =>
  ({
    currentUrl: PAGE,
    nextUrl: PAGE,
    currentParams: { id: "1" },
    nextParams: { id: "1" },
    defaultShouldRevalidate: true,
    ...over,
  }) as Args;

describe("/ij/painel/{id} after a form posts", () => {
  it("reloads its data after subscribing or cancelling, so the button shows the new state", () => {
    expect(shouldRevalidate(args({ formMethod: "POST", formAction: SUBSCRIPTIONS_PATH }))).toBe(true);
  });

  it("keeps the open dashboard after any other post to the same address", () => {
    expect(shouldRevalidate(args({ formMethod: "POST", formAction: "/user/settings" }))).toBe(false);
    expect(shouldRevalidate(args({}))).toBe(false);
  });

  it("loads another dashboard or filter as usual", () => {
    expect(shouldRevalidate(args({ nextUrl: new URL("http://localhost/ij/painel/2") }))).toBe(true);
  });
});
