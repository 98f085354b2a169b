import { describe, expect, it } from "vitest";
import { sniffDelimiter } from "~/platform/import/readers.server";
import { detectTemplate } from "~/platform/import/registry";
import { productTemplate } from "./upload-templates";

describe("import value rules", () => {
  it("detects layouts by header and sniffs the delimiter", () => {
    expect(detectTemplate(["\uFEFFCNPJ", "Description", "channel_siop"])?.template.id).toBe("channel");
    expect(detectTemplate(["channel", "marca", "YEARMONTHDAY", "extra"])?.template.id).toBe("spend");
    expect(detectTemplate(["sku", "marca"])).toBeNull();
    expect(detectTemplate(productTemplate.columns.map((c) => c.name))?.template.id).toBe("product");
    expect(sniffDelimiter("a;b;c")).toBe(";");
    expect(sniffDelimiter("a,b;c,d")).toBe(",");
  });
});
