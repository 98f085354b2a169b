import { describe, expect, it } from "vitest";
import { renderAt } from "#test/static-render";
import { tokenTexts } from "./texts";
import type { TokensActionData, TokensPageData } from "./tokens.server";
import { TokensScreen } from "./tokens-screen";

/** /user/tokens as the server renders it, before any JavaScript: the page a browser without it shows after a POST. */

const SECRET = "jpt_a_b-c__d_0123456789_ABCDEFGHIJKLMNOPQRSTUV_x";

const page: TokensPageData = {
  enabled: true,
  all: false,
  scim: false,
  scimBaseUrl: "https://portal.example.com/scim/v2",
  canSeeAll: false,
  rows: [],
  total: 0,
  page: 1,
  pageCount: 1,
};

const created: TokensActionData = {
  ok: "created",
  id: "6650f1c2a1b2c3d4e5f60718",
  secret: SECRET,
  name: "ERP",
  expiresAt: "02 ago 26 10:00:00",
};

/** The page after posting the new-token form (the route's action answers `answer`). */
function afterPost(answer: TokensActionData) {
  const body = new URLSearchParams({ intent: "create", name: "Integração do armazém", days: "30", scope: "write" });
  return renderAt(
    "/user/tokens",
    [{ id: "tokens", path: "*", loader: () => page, action: () => answer, Component: TokensScreen }],
    { method: "POST", body },
  );
}

const attributesOf = (html: string, tag: string, id: string) =>
  html.match(new RegExp(`<${tag}[^>]*\\bid="${id}"[^>]*>`))?.[0] ?? "";

describe("TokensScreen", () => {
  it("shows a new token's secret whole, as selectable text that wraps, not in a one-line field", async () => {
    const html = await afterPost(created);
    expect(html).toContain(tokenTexts.createdTitle);
    // The whole secret, underscores and all, as the element's text (an input would scroll and clip it).
    expect(html).toMatch(new RegExp(`<code[^>]*class="token-secret__value"[^>]*>${SECRET}</code>`));
    expect(html).not.toMatch(/<input[^>]*token-secret/);
    expect(attributesOf(html, "code", "token-secret")).toContain('class="token-secret__value"');
    // The token's name just above it.
    expect(html).toContain(`<p class="token-secret__name">ERP</p><code id="token-secret"`);
  });

  it("has a copy button that stays hidden until JavaScript can run it, and a polite place for its confirmation", async () => {
    const html = await afterPost(created);
    const button = html.match(/<button[^>]*token-secret__copy[^>]*>[^<]*<\/button>/)?.[0] ?? "";
    expect(button).toContain(`>${tokenTexts.copy}</button>`);
    expect(button).toContain('type="button"');
    expect(button).toContain("hidden");
    expect(button).toContain('aria-controls="token-secret"');
    expect(html).toMatch(/<span class="token-secret__copied" aria-live="polite"><\/span>/);
  });

  it("shows an empty new-token form after creating one", async () => {
    const html = await afterPost(created);
    expect(attributesOf(html, "input", "token-name")).not.toContain("value=");
    expect(attributesOf(html, "input", "token-days")).toContain('value="90"');
    const scopes = html.match(/<input type="radio" name="scope"[^>]*>/g) ?? [];
    expect(scopes.filter((input) => input.includes("checked"))).toEqual([
      '<input type="radio" name="scope" checked="" value="read"/>',
    ]);
    expect(html).not.toContain("Integração do armazém");
  });

  it("shows no secret and no copy button before a token is created", async () => {
    const html = await renderAt("/user/tokens", [
      { id: "tokens", path: "*", loader: () => page, Component: TokensScreen },
    ]);
    expect(html).not.toContain("token-secret");
    expect(html).toContain(tokenTexts.createTitle);
  });

  it("on the SCIM view, says how to set a directory up, shows the absolute base URL to copy and offers 4 lives", async () => {
    const html = await renderAt("/user/tokens?scim=1", [
      {
        id: "tokens",
        path: "*",
        loader: () => ({ ...page, scim: true, canSeeAll: true }),
        Component: TokensScreen,
      },
    ]);
    for (const line of tokenTexts.scimHelp) expect(html).toContain(line);
    expect(html).toMatch(/<code id="scim-base-url"[^>]*>https:\/\/portal.example.com\/scim\/v2<\/code>/);
    const copy = html.match(/<button[^>]*aria-controls="scim-base-url"[^>]*>[^<]*<\/button>/)?.[0] ?? "";
    expect(copy).toContain(`>${tokenTexts.copyScimBaseUrl}</button>`);
    expect(copy).toContain("hidden");
    expect(html).toContain('href="/api/docs#scim"');
    const lives = html.match(/<input type="radio" name="days"[^>]*>/g) ?? [];
    expect(lives.map((input) => input.match(/value="([^"]+)"/)?.[1])).toEqual(["90", "180", "365", "never"]);
    expect(lives.filter((input) => input.includes("checked"))).toHaveLength(1);
    expect(lives.find((input) => input.includes("checked"))).toContain('value="90"');
    expect(html).toContain(tokenTexts.scimLives.never);
    expect(html).not.toContain('id="token-days"');
  });

  it("keeps 1 to 365 days for a personal token, with no choice of no expiry", async () => {
    const html = await renderAt("/user/tokens", [
      { id: "tokens", path: "*", loader: () => ({ ...page, canSeeAll: true }), Component: TokensScreen },
    ]);
    expect(attributesOf(html, "input", "token-days")).toContain('max="365"');
    expect(html).not.toContain('value="never"');
    expect(html).not.toContain("scim-base-url");
  });
});
