/** A row's comment thread as the grid marks it: its comments' count, and whether it is resolved. */
export type HrThreadMark = { comments: number; resolved: boolean };
