import { describe, expect, it } from "vitest";
import { messages } from "~/messages";
import { errorPageFor } from "./error-boundary";

const routeError = (status: number) => ({ status, statusText: "", internal: false, data: null });

describe("errorPageFor", () => {
  it("shows 403 and 404 as such, in Portuguese", () => {
    expect(errorPageFor(routeError(403))).toEqual({
      status: 403,
      title: messages.forbiddenTitle,
      text: messages.forbidden,
    });
    expect(errorPageFor(routeError(404))).toEqual({
      status: 404,
      title: messages.notFoundTitle,
      text: messages.notFound,
    });
  });

  it("shows anything else as a 500 without details", () => {
    expect(errorPageFor(new Error("secret stack"))).toEqual({
      status: 500,
      title: messages.serverErrorTitle,
      text: messages.serverError,
    });
    expect(errorPageFor(routeError(400)).status).toBe(500);
    expect(errorPageFor("boom").status).toBe(500);
  });
});
