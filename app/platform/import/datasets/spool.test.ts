import fs from "node:fs/promises";
import path from "node:path";
import { ObjectId } from "mongodb";
import { describe, expect, it } from "vitest";
import { useTempDataDir } from "#test/upload-fixtures";
import { RowSpool, type SpooledRow, spoolDir } from "./spool.server";

useTempDataDir();

async function readAll(spool: RowSpool, size: number): Promise<SpooledRow[][]> {
  const batches: SpooledRow[][] = [];
  for await (const batch of spool.batches(size)) batches.push(batch);
  return batches;
}

describe("the spool of an all-or-nothing upload", () => {
  it("gives back every row in the order written, in batches of the asked size, whatever the rows' sizes", async () => {
    const spool = await RowSpool.create(new ObjectId());
    const row = (i: number, text: string): SpooledRow => ({
      key: `k${i}`,
      line: i + 2,
      doc: { text, at: new Date(Date.UTC(2026, i % 12, 1)), n: i * 1.5 },
    });
    // Small rows across the 1 MB read buffer's edges, then one row of 3 MB (larger than the buffer), then small again.
    const rows = [
      ...Array.from({ length: 5_000 }, (_, i) => row(i, `linha ${i} ${"x".repeat(i % 400)}`)),
      row(5_000, "é".repeat(1_500_000)),
      ...Array.from({ length: 999 }, (_, i) => row(5_001 + i, `fim ${i}`)),
    ];
    // Two appends in flight at once keep their order.
    await Promise.all([
      spool.append(rows.slice(0, 2_500)),
      spool.append(rows.slice(2_500, 5_001)),
      spool.append(rows.slice(5_001)),
    ]);
    const batches = await readAll(spool, 2_000);
    expect(batches.map((b) => b.length)).toEqual([2_000, 2_000, 2_000]);
    expect(batches.flat()).toEqual(rows);
    await spool.remove();
  });

  it("is deleted when its run ends; a new run of the same upload removes what a dead run left, other uploads' spools stay", async () => {
    const file = new ObjectId();
    const other = new ObjectId();
    await fs.mkdir(spoolDir(), { recursive: true });
    const left = path.join(spoolDir(), `${file.toHexString()}-dead.bson`);
    const othersSpool = path.join(spoolDir(), `${other.toHexString()}-running.bson`);
    await fs.writeFile(left, "rows of a run that died");
    await fs.writeFile(othersSpool, "rows of another upload");
    const spool = await RowSpool.create(file);
    expect((await fs.readdir(spoolDir())).sort()).toEqual(
      [path.basename(othersSpool), path.basename(spool.path)].sort(),
    );
    await spool.append([{ key: "a", line: 2, doc: { v: 1 } }]);
    await spool.remove();
    await spool.remove();
    expect(await fs.readdir(spoolDir())).toEqual([path.basename(othersSpool)]);
    await fs.rm(othersSpool);
  });

  it("removes another upload's spool once it is a day old (its run cannot still be going)", async () => {
    await fs.mkdir(spoolDir(), { recursive: true });
    const stale = path.join(spoolDir(), `${new ObjectId().toHexString()}-old.bson`);
    await fs.writeFile(stale, "old rows");
    const dayAndAMinuteAgo = new Date(Date.now() - 24 * 60 * 60 * 1000 - 60_000);
    await fs.utimes(stale, dayAndAMinuteAgo, dayAndAMinuteAgo);
    const spool = await RowSpool.create(new ObjectId());
    expect(await fs.readdir(spoolDir())).toEqual([path.basename(spool.path)]);
    await spool.remove();
  });
});
