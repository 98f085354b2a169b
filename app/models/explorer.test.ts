import { describe, expect, it } from "vitest";
import { normalizeSearchText } from "./explorer.server";

describe("normalizeSearchText", () => {
  it("lower-cases, strips accents and punctuation, and collapses spaces", () => {
    expect(normalizeSearchText("  Relatório de Sell-out:  AÇAÍ, 20%!  ")).toBe("relatorio de sell out acai 20");
    expect(normalizeSearchText("São Paulo\n- Paulista")).toBe("sao paulo paulista");
    expect(normalizeSearchText("...")).toBe("");
  });
});
