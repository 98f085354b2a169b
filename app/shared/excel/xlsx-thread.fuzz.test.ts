import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { readXlsxRows } from "xlsx-reader";
import {
  CASES,
  fuzzSeeds,
  mutatedWorkbook,
  ON_THREAD_EVERY,
  outcomeOf,
} from "../../../packages/xlsx-reader/test-support/mutations";
import { readXlsxRowsOnThread } from "./xlsx-thread.server";

/**
 * The XLSX reader's mutated workbooks (packages/xlsx-reader/test-support/mutations.ts, read in process by the
 * package's fuzz.test.ts): every ON_THREAD_EVERY-th one, read on the bounded thread, gives the same answer as in
 * process, rows or the reader's own error, message for message.
 */

describe("readXlsxRowsOnThread on mutated workbooks", () => {
  const seeds: Buffer[] = [];
  beforeAll(async () => {
    seeds.push(...(await fuzzSeeds()));
  });

  for (let n = 0; n < CASES; n += ON_THREAD_EVERY) {
    it(`case ${n}: the same rows or error on the thread as in process`, async () => {
      const file = await mutatedWorkbook(n, seeds);
      const outcome = await outcomeOf(readXlsxRows(Readable.from([file])));
      expect(await outcomeOf(readXlsxRowsOnThread(file))).toEqual(outcome);
    });
  }
});
