import { describe, expect, it } from "vitest";
import type { DocumentSink } from "~/features/reports-and-financial/documents-store.server";
import { SeedObjects } from "./stored-objects";

/** A sink that keeps every object's bytes and records how each arrived. */
function memorySink(withCopies: boolean) {
  const stored = new Map<string, string>();
  const calls: string[] = [];
  const sink: DocumentSink = {
    bucket: "memory",
    put: async (key, bytes) => {
      await new Promise((r) => setTimeout(r, 1));
      stored.set(key, bytes.toString());
      calls.push(`put ${key}`);
    },
    remove: async (key) => void stored.delete(key),
  };
  if (withCopies) {
    sink.putCopy = async (sourceKey, key) => {
      if (!stored.has(sourceKey)) throw new Error(`copy of ${sourceKey} before it was stored`);
      stored.set(key, stored.get(sourceKey)!);
      calls.push(`copy ${sourceKey} -> ${key}`);
    };
  }
  return { sink, stored, calls };
}

function registry() {
  const objects = new SeedObjects();
  let renders = 0;
  const render = (text: string) => async () => {
    renders++;
    return Buffer.from(text);
  };
  for (let i = 0; i < 20; i++)
    objects.need(`files/${i}.csv`, objects.shared(`variant-${i % 3}`, render(`content ${i % 3}`)));
  objects.need("reports/own.pdf", render("own"));
  return { objects, renders: () => renders };
}

describe("SeedObjects.writeAll", () => {
  it("writes each shared content once and copies it to the other keys, where the sink can copy", async () => {
    const { objects, renders } = registry();
    const { sink, stored, calls } = memorySink(true);
    expect(await objects.writeAll(sink, 8)).toBe(21);
    expect(stored.size).toBe(21);
    for (let i = 0; i < 20; i++) expect(stored.get(`files/${i}.csv`)).toBe(`content ${i % 3}`);
    expect(stored.get("reports/own.pdf")).toBe("own");
    expect(calls.filter((c) => c.startsWith("put ")).length).toBe(4);
    expect(calls.filter((c) => c.startsWith("copy ")).length).toBe(17);
    expect(renders()).toBe(4);
  });

  it("puts every object when the sink cannot copy, rendering each shared content once", async () => {
    const { objects, renders } = registry();
    const { sink, stored, calls } = memorySink(false);
    expect(await objects.writeAll(sink, 8)).toBe(21);
    for (let i = 0; i < 20; i++) expect(stored.get(`files/${i}.csv`)).toBe(`content ${i % 3}`);
    expect(calls.every((c) => c.startsWith("put "))).toBe(true);
    expect(calls.length).toBe(21);
    expect(renders()).toBe(4);
  });

  it("fails when the first write of a shared content fails, and copies nothing from it", async () => {
    const { objects } = registry();
    const { sink, calls } = memorySink(true);
    const put = sink.put;
    sink.put = async (key, bytes, type) => {
      if (key === "files/1.csv") throw new Error("disk full");
      return put(key, bytes, type);
    };
    await expect(objects.writeAll(sink, 8)).rejects.toThrow("disk full");
    expect(calls.some((c) => c.startsWith("copy files/1.csv"))).toBe(false);
  });
});
