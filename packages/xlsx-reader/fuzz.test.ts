import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { readXlsxRows } from "./index";
import { CASES, fuzzSeeds, mutatedWorkbook, ON_THREAD_EVERY, outcomeOf } from "./test-support/mutations";

/**
 * Valid workbooks mutated at random (test-support/mutations.ts). Whatever comes out, the reader gives rows or fails
 * with its own error (UnreadableFileError, or FileRefusedError naming a cap), never another error and never a wait
 * without end (each read is a test under the test timeout). The portal's xlsx-thread.fuzz.test.ts reads every
 * ON_THREAD_EVERY-th case on the bounded thread too, and expects the same answer.
 */

describe("readXlsxRows on mutated workbooks", () => {
  const seeds: Buffer[] = [];
  beforeAll(async () => {
    seeds.push(...(await fuzzSeeds()));
    for (const seed of seeds)
      expect((await outcomeOf(readXlsxRows(Readable.from([seed])))) as object).toHaveProperty("rows");
  });

  for (let n = 0; n < CASES; n++) {
    const onThread = n % ON_THREAD_EVERY === 0;
    it(`case ${n}: rows or the reader's own error${onThread ? " (read on the thread too by the portal's test)" : ""}`, async () => {
      const file = await mutatedWorkbook(n, seeds);
      await outcomeOf(readXlsxRows(Readable.from([file])));
    });
  }
});
