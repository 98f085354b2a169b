import { redirect } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { redirectWithToast } from "~/shared/toast.server";

describe("toRedirectTo", () => {
  it("passes for a redirect to the given location", () => {
    expect(redirect("/home")).toRedirectTo("/home");
    expect(redirect("/home", 303)).toRedirectTo("/home", 303);
  });

  it("fails with a readable message otherwise", () => {
    expect(() => expect(redirect("/home")).toRedirectTo("/")).toThrow(
      /expected a redirect to .*"\/".*, received status 302 with Location .*"\/home"/,
    );
    expect(() => expect(redirect("/home")).toRedirectTo("/home", 301)).toThrow(/\(301\)/);
    expect(() => expect(new Response("ok")).toRedirectTo("/home")).toThrow(/received status 200/);
    expect(() => expect("not a response").toRedirectTo("/home")).toThrow(/expected a Response/);
    expect(new Response("ok")).not.toRedirectTo("/home");
  });
});

describe("toSendToast", () => {
  it("reads the toast from Set-Cookie", async () => {
    const response = await redirectWithToast("/", { type: "error", description: "Ocorreu um erro." });
    await expect(response).toSendToast({ type: "error", description: "Ocorreu um erro." });
    await expect(response).toSendToast();
    await expect(response).not.toSendToast({ type: "success" });
  });

  it("fails when no toast was set", async () => {
    await expect(expect(redirect("/")).toSendToast()).rejects.toThrow(/set none/);
  });
});
