/** The server's limits, as mongod announces them (hello) and enforces them, and its own batch and chunk sizes. */

export const MAX_BSON_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE = 48_000_000;
export const MAX_WRITE_BATCH = 100_000;
export const DEFAULT_BATCH = 101;
export const CURSOR_IDLE_MS = 10 * 60 * 1000;

/** How many profiled operations a database keeps (system.profile). */
export const PROFILE_CAPACITY = 10_000;

/** How many documents a multi-document write changes between two looks at the clock. */
export const WRITE_CHUNK = 64;
