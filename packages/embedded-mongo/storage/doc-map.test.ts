/** A collection's documents map, given a start's documents before they are in it. */
import { describe, expect, it } from "vitest";
import { DocMap } from "./doc-map";

describe("a documents map given a start's documents (DocMap.adopt)", () => {
  const adopted = () => {
    const map = new DocMap();
    const docs = Array.from({ length: 40_000 }, (_, i) => ({ _id: i }));
    map.adopt(
      docs.map((d) => String(d._id)),
      docs,
    );
    return { map, docs };
  };

  it("counts them before they are in the map, and answers every call as a map that held them first", () => {
    const { map, docs } = adopted();
    expect(map.size).toBe(40_000);
    expect(map.get("39999")).toBe(docs[39_999]);
    map.set("new", { _id: "new" });
    map.delete("0");
    expect(map.size).toBe(40_000);
    expect(map.has("0")).toBe(false);
    const keys = [...map.keys()];
    expect(keys.slice(0, 2)).toEqual(["1", "2"]);
    expect(keys.at(-1)).toBe("new");
  });

  it("puts them in a slice at a time, and a call between slices finds them all", async () => {
    const { map, docs } = adopted();
    let pauses = 0;
    const settling = map.settleAsync(async () => {
      pauses++;
      // The first pause: part of them are in the map.
      if (pauses === 1) {
        expect(map.size).toBe(40_000);
        expect(map.get("39999")).toBe(docs[39_999]);
        expect([...map.values()]).toEqual(docs);
      }
    });
    await settling;
    expect(pauses).toBe(1);
    expect(map.size).toBe(40_000);
    expect([...map.values()].map((d) => d._id)).toEqual(docs.map((d) => d._id));
  });

  it("sets a new document after the adopted ones, and clear drops them", () => {
    const first = adopted();
    first.map.set("0", { _id: 0, changed: true });
    expect(first.map.size).toBe(40_000);
    expect(first.map.get("0")).toEqual({ _id: 0, changed: true });
    const second = adopted();
    second.map.clear();
    expect(second.map.size).toBe(0);
    expect([...second.map.values()]).toEqual([]);
    expect(() => first.map.adopt(["x"], [{ _id: "x" }])).toThrow(/not empty/);
  });
});
