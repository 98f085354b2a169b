import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { Coalesce } from "./coalesce.server";

/** The chunks a Coalesce hands on, as strings, collected as they come. */
function observe() {
  const stream = new Coalesce();
  const out: string[] = [];
  stream.on("data", (chunk: Buffer) => out.push(chunk.toString("utf8")));
  return { stream, out };
}

describe("Coalesce (the document stream between React and the response)", () => {
  it("hands on what was written in one turn as one chunk, with the same bytes in the same order", async () => {
    const { stream, out } = observe();
    const parts = Array.from({ length: 300 }, (_, i) => `<td>${i} ção</td>`);
    for (const p of parts) stream.write(Buffer.from(p));
    expect(out).toEqual([]);
    await nextTurn();
    await nextTurn();
    expect(out).toEqual([parts.join("")]);
  });

  it("keeps streaming: what is written in a later turn goes out as its own chunk, before the end", async () => {
    const { stream, out } = observe();
    stream.write(Buffer.from("<html><body>shell"));
    await nextTurn();
    await nextTurn();
    expect(out).toEqual(["<html><body>shell"]);
    stream.write(Buffer.from("<script>late</script>"));
    await nextTurn();
    await nextTurn();
    expect(out).toEqual(["<html><body>shell", "<script>late</script>"]);
  });

  it("hands on 64 kB at once without waiting for the turn to end, and the rest at the end", async () => {
    const { stream, out } = observe();
    const big = "x".repeat(40 * 1024);
    stream.write(Buffer.from(big));
    stream.write(Buffer.from(big));
    expect(out).toEqual([big + big]);
    stream.write(Buffer.from("tail"));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    stream.end();
    await ended;
    expect(out).toEqual([big + big, "tail"]);
  });
});
