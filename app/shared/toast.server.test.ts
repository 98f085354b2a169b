import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import {
  createToastHeaders,
  getToast,
  readToastFromResponse,
  redirectWithToast,
  TOAST_COOKIE_NAME,
} from "./toast.server";

/** The Cookie header a browser would send back after receiving these Set-Cookie headers. */
function cookieFrom(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

describe("toast cookie", () => {
  beforeEach(() => resetConfigForTests());
  afterEach(() => resetConfigForTests());

  it("carries a toast through a redirect and shows it once", async () => {
    const response = await redirectWithToast("/user/config", { description: "Salvo com sucesso!" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/user/config");
    const setCookie = response.headers.get("Set-Cookie") ?? "";
    expect(setCookie).toContain(`${TOAST_COOKIE_NAME}=`);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);

    const next = new Request("http://localhost/user/config", { headers: { Cookie: cookieFrom(response.headers) } });
    const { toast, headers } = await getToast(next);
    expect(toast).toMatchObject({ type: "success", description: "Salvo com sucesso!" });
    expect(toast?.id).toBeTruthy();
    // The answer clears the cookie, so a reload does not show it again.
    expect(headers?.get("Set-Cookie")).toMatch(
      new RegExp(`^${TOAST_COOKIE_NAME}=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)`, "i"),
    );
  });

  it("has nothing to show without the cookie", async () => {
    expect(await getToast(new Request("http://localhost/"))).toEqual({ toast: null, headers: null });
    expect(await getToast(new Request("http://localhost/", { headers: { Cookie: "other=1" } }))).toEqual({
      toast: null,
      headers: null,
    });
  });

  it("ignores and clears a tampered cookie", async () => {
    const headers = await createToastHeaders({ type: "error", description: "Ocorreu um erro." });
    const tampered = cookieFrom(headers).replace(/=(.)/, (_m, c: string) => `=${c === "A" ? "B" : "A"}`);
    const { toast, headers: clear } = await getToast(
      new Request("http://localhost/", { headers: { Cookie: tampered } }),
    );
    expect(toast).toBeNull();
    expect(clear?.get("Set-Cookie")).toContain(`${TOAST_COOKIE_NAME}=;`);
  });

  it("keeps other headers of the redirect", async () => {
    const response = await redirectWithToast(
      "/",
      { title: "OPS!", description: "x", type: "warning" },
      {
        headers: { "Set-Cookie": "session=abc; Path=/" },
        status: 303,
      },
    );
    expect(response.status).toBe(303);
    expect(response.headers.getSetCookie()).toHaveLength(2);
    expect(await readToastFromResponse(response)).toMatchObject({ title: "OPS!", type: "warning" });
  });

  it("rejects a toast it could not carry", async () => {
    await expect(createToastHeaders({ description: "x".repeat(5000) })).rejects.toThrow();
  });
});
