import type { Document } from "mongodb";
import { getDb } from "~/db.server";
import { inRequestScope } from "~/shared/request-scope.server";

/**
 * Reads of one page request that do not wait for each other, sent to the database as one command.
 *
 * A loader often starts several reads at once (`Promise.all`): the grid and its cycle panel, a page of rows and its
 * count. Each is a command of its own, and on the portal's pages a command costs about as much CPU in the driver and
 * the database as a small page's rendering. `aggregateTogether` collects the reads a request starts in the same turn
 * of the event loop and sends them as one `aggregate`: the first read's pipeline on its collection, each other one
 * in a `$unionWith` on its own, every document tagged with its read, the answer split back by tag. Each read keeps
 * its own collection, index and order (`$unionWith` passes its input through, then the sub-pipeline's output).
 *
 * Only GET requests have a scope (app/shared/request-scope.server.ts); outside one, and when a turn has one read, the
 * read is a plain aggregate. Reads sent together fail together: one refused read (an unindexed scan under
 * `notablescan`) refuses the others of its turn, as `Promise.all` over them would have.
 */

type Read = {
  collection: string;
  pipeline: Document[];
  resolve: (docs: Document[]) => void;
  reject: (error: unknown) => void;
};
type Turn = { reads: Read[] };
type Batcher = { turn: Turn | null };

/** One answer holds every read's documents: the server still cuts a batch at 16 MB (then the cursor goes on). */
const BATCH_SIZE = 100_000;
const PART = "__part";
const DOC = "__doc";

/** The documents of `pipeline` over `collection`, read together with the request's other reads of this turn. */
export function aggregateTogether<T extends Document>(collection: string, pipeline: Document[]): Promise<T[]> {
  const batcher = inRequestScope<Batcher>("reads-together", () => ({ turn: null }));
  if (!batcher) return runAlone(collection, pipeline) as Promise<T[]>;
  return new Promise<T[]>((resolve, reject) => {
    if (!batcher.turn) {
      const turn: Turn = { reads: [] };
      batcher.turn = turn;
      // After every read started in this turn (and the microtasks they await first) has joined.
      setImmediate(() => {
        batcher.turn = null;
        void send(turn.reads);
      });
    }
    batcher.turn.reads.push({ collection, pipeline, resolve: resolve as Read["resolve"], reject });
  });
}

async function runAlone(collection: string, pipeline: Document[]): Promise<Document[]> {
  return (await getDb()).collection(collection).aggregate(pipeline, { batchSize: BATCH_SIZE }).toArray();
}

async function send(reads: Read[]): Promise<void> {
  if (reads.length === 1) {
    const [read] = reads;
    return runAlone(read.collection, read.pipeline).then(read.resolve, read.reject);
  }
  const tagged = (pipeline: Document[], part: number) => [
    ...pipeline,
    { $replaceWith: { [PART]: part, [DOC]: "$$ROOT" } },
  ];
  const [first, ...others] = reads;
  const pipeline = [
    ...tagged(first.pipeline, 0),
    ...others.map((read, i) => ({ $unionWith: { coll: read.collection, pipeline: tagged(read.pipeline, i + 1) } })),
  ];
  try {
    const rows = await runAlone(first.collection, pipeline);
    const parts: Document[][] = reads.map(() => []);
    for (const row of rows) parts[row[PART] as number].push(row[DOC] as Document);
    for (const [i, read] of reads.entries()) read.resolve(parts[i]);
  } catch (error) {
    for (const read of reads) read.reject(error);
  }
}
