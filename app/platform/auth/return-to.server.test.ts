import { describe, expect, it } from "vitest";
import { type AccessContext, DEFAULT_HR_EDITOR_TYPES } from "~/access";
import { parseConfig } from "~/config.server";
import { isLocalPath, pageAddressOf, type RouteManifest, returnPathFor, signInPath } from "./return-to.server";

// The default configuration's flags (every area on).
const context: AccessContext = { features: parseConfig({}).features, hrEditorTypes: DEFAULT_HR_EDITOR_TYPES };

const page = { default: () => null, loader: () => null };
const resource = { loader: () => null };
const route = (id: string, parentId: string | undefined, path: string | undefined, module: object, index = false) => ({
  [id]: { id, parentId, path, index, caseSensitive: undefined, module },
});

/** A manifest shaped as Remix builds it (flat, parents by id): the layout of /repo, its pages and a splat. */
const routes = {
  ...route("root", undefined, "", page),
  ...route("routes/_index", "root", undefined, page, true),
  ...route("routes/home", "root", "home", page),
  ...route("routes/repo", "root", "repo", page),
  ...route("routes/repo.format", "routes/repo", "format", page),
  ...route("routes/repo.$", "routes/repo", "*", page),
  ...route("routes/user", "root", "user", page),
  ...route("routes/user.config", "routes/user", "config", page),
  ...route("routes/download.$token", "root", "download/:token", resource),
} as unknown as RouteManifest;

describe("isLocalPath", () => {
  it("accepts paths of this origin only", () => {
    expect(isLocalPath("/repo/format?page=2")).toBe(true);
    for (const bad of [
      "//evil.example",
      "/\\evil.example",
      "https://evil.example/",
      "javascript:alert(1)",
      "repo/format",
      "/\tx",
      "",
    ]) {
      expect(isLocalPath(bad), bad).toBe(false);
    }
  });
});

describe("pageAddressOf", () => {
  it("is the page of a GET (document or .data), without the transport parameters", () => {
    expect(pageAddressOf(new Request("http://x/repo/format?page=2"))).toBe("/repo/format?page=2");
    expect(pageAddressOf(new Request("http://x/repo/format.data?page=2&_routes=routes%2Frepo.format"))).toBe(
      "/repo/format?page=2",
    );
    expect(pageAddressOf(new Request("http://x/repo/master-data?index"))).toBe("/repo/master-data");
  });
  it("is nothing for a form post, the login page itself or an address too long to keep", () => {
    expect(pageAddressOf(new Request("http://x/user/config", { method: "POST" }))).toBeNull();
    expect(pageAddressOf(new Request("http://x/_root.data"))).toBeNull();
    expect(pageAddressOf(new Request(`http://x/repo/format?q=${"a".repeat(3000)}`))).toBeNull();
  });
});

describe("signInPath", () => {
  it("opens the session-expired modal, with the page to return to", () => {
    expect(signInPath("expired", "/repo/format?page=2")).toBe("/?expired=1&redirectTo=%2Frepo%2Fformat%3Fpage%3D2");
    expect(signInPath("expired", null)).toBe("/?expired=1");
  });
});

describe("returnPathFor: the router's match decides, against the user's type", () => {
  it("returns to a page the type may open, as asked (matched case-insensitively, like the router)", () => {
    expect(returnPathFor("/repo/format?page=2", "USER GOLD", routes, context)).toBe("/repo/format?page=2");
    expect(returnPathFor("/REPO/Format", "SYSTEM ADMIN", routes, context)).toBe("/REPO/Format");
    expect(returnPathFor("/user/config", "USER ADMIN", routes, context)).toBe("/user/config");
  });
  it("refuses a page the type may not open", () => {
    expect(returnPathFor("/repo/format", "USER BRONZE", routes, context)).toBeNull();
    expect(returnPathFor("/user/config", "USER GOLD", routes, context)).toBeNull();
    expect(returnPathFor("/repo/format", "", routes, context)).toBeNull();
  });
  it("refuses other sites, resource routes, public pages, unknown addresses and anything without a manifest", () => {
    for (const bad of [
      "//evil.example/repo/format",
      "/\\evil.example",
      "https://evil.example/repo/format",
      "/download/abc",
      "/",
      "/home",
      "/nowhere",
    ]) {
      expect(returnPathFor(bad, "SYSTEM ADMIN", routes, context), bad).toBeNull();
    }
    expect(returnPathFor(42, "USER GOLD", routes, context)).toBeNull();
    expect(returnPathFor("/repo/format", "USER GOLD", null, context)).toBeNull();
  });
  it("a splat under a protected prefix is a page of that prefix: signed-in types only", () => {
    expect(returnPathFor("/repo/whatever", "USER BRONZE", routes, context)).toBe("/repo/whatever");
    expect(returnPathFor("/repo/whatever", null, routes, context)).toBeNull();
  });
});
