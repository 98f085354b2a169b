import { describe, expect, it } from "vitest";
import { parsePaging } from "./pagination";

const parse = (query: string) => parsePaging(new URL(`http://x/list${query}`), [20, 40]);

describe("parsePaging", () => {
  it("starts at page 1 with the first size", () => {
    expect(parse("")).toEqual({ page: 1, pageSize: 20 });
  });

  it("keeps a valid page and an offered size", () => {
    expect(parse("?page=3&pageSize=40")).toEqual({ page: 3, pageSize: 40 });
  });

  it("falls back to 1 and 20 for anything else", () => {
    expect(parse("?page=0&pageSize=30")).toEqual({ page: 1, pageSize: 20 });
    expect(parse("?page=-2&pageSize=abc")).toEqual({ page: 1, pageSize: 20 });
    expect(parse("?page=1.5&pageSize=40.0")).toEqual({ page: 1, pageSize: 40 });
    expect(parse("?page=1000001")).toEqual({ page: 1, pageSize: 20 });
  });
});
