import { ObjectId } from "mongodb";
import { getDb, isDuplicateKeyError } from "~/db.server";
import type { IndexDeclaration } from "./indexes";
import { aggregateTogether } from "./reads-together.server";

/**
 * Comments on a grid's cells (the forecast review, the planning grid, the HR grid). A cell is named by its screen, the
 * scope its grid shows (a review's RF and cost centre; a branch; the planning rows) and the cell's own key within it,
 * all from the data's keys, never from a position on screen: a comment stays with its figure through saves and round
 * trips. Each comment is a document (`cell_comments`); each commented cell has a thread record (`cell_threads`) with
 * its count and whether it is resolved, which the grids read for their markers.
 */

export const CELL_COMMENTS = "cell_comments";
export const CELL_THREADS = "cell_threads";

export const COMMENT_SCREENS = ["forecast", "planning", "hr"] as const;
export type CommentScreen = (typeof COMMENT_SCREENS)[number];

/** The longest comment (characters, a line break counted once). */
export const COMMENT_MAX = 2_000;
/** Comments a thread shows (the oldest first); a thread longer than that shows its last ones. */
export const THREAD_SHOWN = 500;
/** Threads one grid's markers read at most. */
const MARKS_MAX = 10_000;

export type CellKey = { screen: CommentScreen; scope: string; cell: string };

export type CellCommentRecord = CellKey & {
  _id: ObjectId;
  author: string;
  author_name: string;
  text: string;
  /** The e-mails mentioned (each one notified). */
  mentions: string[];
  created_at: Date;
};

export type CellThreadRecord = CellKey & {
  _id: ObjectId;
  comments: number;
  last_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
};

export const indexes: IndexDeclaration[] = [
  // One thread per cell; a grid's markers read its scope's threads.
  {
    collection: CELL_THREADS,
    key: { screen: 1, scope: 1, cell: 1 },
    options: { name: "screen_scope_cell_unique", unique: true },
  },
  // A thread's comments in order, and an export's notes (the scope's comments).
  {
    collection: CELL_COMMENTS,
    key: { screen: 1, scope: 1, cell: 1, created_at: 1 },
    options: { name: "cell_created" },
  },
];

const threads = async () => (await getDb()).collection<CellThreadRecord>(CELL_THREADS);
const comments = async () => (await getDb()).collection<CellCommentRecord>(CELL_COMMENTS);

/** A screen's name as a query value: one of COMMENT_SCREENS, never an object a caller built. */
function screenOf(screen: CommentScreen): CommentScreen {
  if (!(COMMENT_SCREENS as readonly unknown[]).includes(screen)) throw new TypeError("unknown comment screen");
  return screen;
}

/** The key as a query: three strings, never an object a caller built. */
const keyFilter = (key: CellKey) => ({
  screen: screenOf(key.screen),
  scope: String(key.scope),
  cell: String(key.cell),
});

export type ThreadMark = { cell: string; comments: number; resolved: boolean };

/** The commented cells of a scope (all of them, or those of `cells`), with their count and state. */
export async function threadMarks(
  screen: CommentScreen,
  scope: string,
  cells?: readonly string[],
): Promise<ThreadMark[]> {
  const filter = {
    screen: screenOf(screen),
    scope: String(scope),
    ...(cells ? { cell: { $in: cells.map(String) } } : {}),
  };
  // Read together with the page's other reads of the same turn (the review's versions).
  const rows = await aggregateTogether<Pick<CellThreadRecord, "cell" | "comments" | "resolved_at">>(CELL_THREADS, [
    { $match: filter },
    { $limit: MARKS_MAX },
    { $project: { _id: 0, cell: 1, comments: 1, resolved_at: 1 } },
  ]);
  return rows.map((r) => ({ cell: r.cell, comments: r.comments, resolved: r.resolved_at !== null }));
}

export type ThreadRead = {
  thread: CellThreadRecord | null;
  /** Oldest first: the last THREAD_SHOWN. */
  comments: CellCommentRecord[];
};

export async function readThread(key: CellKey): Promise<ThreadRead> {
  const [thread, latest] = await Promise.all([
    (await threads()).findOne(keyFilter(key)),
    (await comments()).find(keyFilter(key)).sort({ created_at: -1, _id: -1 }).limit(THREAD_SHOWN).toArray(),
  ]);
  return { thread, comments: latest.reverse() };
}

/** Stores a comment and counts it on its thread (a resolved thread opens again). */
export async function insertComment(
  key: CellKey,
  comment: { author: string; authorName: string; text: string; mentions: readonly string[] },
  now: Date,
): Promise<CellCommentRecord> {
  const record: CellCommentRecord = {
    _id: new ObjectId(),
    ...keyFilter(key),
    author: comment.author,
    author_name: comment.authorName,
    text: comment.text,
    mentions: [...comment.mentions],
    created_at: now,
  };
  await (await comments()).insertOne(record);
  const count = async () =>
    (await threads()).updateOne(
      keyFilter(key),
      { $inc: { comments: 1 }, $set: { last_at: now, resolved_at: null, resolved_by: null } },
      { upsert: true },
    );
  // Two first comments of a cell at once: one upsert inserts the thread, the other meets its unique key and counts on it.
  await count().catch((error: unknown) => {
    if (isDuplicateKeyError(error)) return count();
    throw error;
  });
  return record;
}

/** Resolves (or opens again) a cell's thread; false when the cell has none. */
export async function setThreadResolved(key: CellKey, by: string, resolved: boolean, now: Date): Promise<boolean> {
  const result = await (await threads()).updateOne(keyFilter(key), {
    $set: resolved ? { resolved_at: now, resolved_by: by } : { resolved_at: null, resolved_by: null },
  });
  return result.matchedCount > 0;
}

/** Every comment of a scope's cells (those of `cells`, or all), oldest first per cell: an export's notes. */
export async function commentsOfScope(
  screen: CommentScreen,
  scope: string,
  cells?: readonly string[],
): Promise<Map<string, CellCommentRecord[]>> {
  const rows = await (await comments())
    .find({ screen: screenOf(screen), scope: String(scope), ...(cells ? { cell: { $in: cells.map(String) } } : {}) })
    .sort({ cell: 1, created_at: 1 })
    .limit(MARKS_MAX)
    .toArray();
  const byCell = new Map<string, CellCommentRecord[]>();
  for (const row of rows) {
    const list = byCell.get(row.cell);
    if (list) list.push(row);
    else byCell.set(row.cell, [row]);
  }
  return byCell;
}
