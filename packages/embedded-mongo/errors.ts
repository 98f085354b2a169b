/**
 * Server-side errors carrying MongoDB's numeric code and codeName, so the
 * driver raises the same error classes it raises against a real mongod.
 */

export const ErrorCodes = {
  InternalError: 1,
  BadValue: 2,
  FailedToParse: 9,
  Unauthorized: 13,
  TypeMismatch: 14,
  IllegalOperation: 20,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  CursorNotFound: 43,
  MaxTimeMSExpired: 50,
  QueryPlanKilled: 175,
  NamespaceExists: 48,
  CommandNotFound: 59,
  ImmutableField: 66,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  CannotCreateIndex: 67,
  OperationNotSupportedInTransaction: 263,
  IndexBuildAborted: 276,
  NoQueryExecutionPlans: 291,
  DollarPrefixedFieldName: 52,
  MergeStageNoMatchingDocument: 13113,
  DuplicateKey: 11000,
  OutOfDiskSpace: 14031,
} as const;

export type ErrorCodeName = keyof typeof ErrorCodes;

export class MongoCommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly extra: Record<string, unknown>;

  constructor(codeName: ErrorCodeName | number, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    // A number is one of mongod's numbered assertions without a name of its own: its codeName is "Location<code>".
    this.code = typeof codeName === "number" ? codeName : ErrorCodes[codeName];
    this.codeName = typeof codeName === "number" ? `Location${codeName}` : codeName;
    this.extra = extra;
  }

  /** The reply document MongoDB sends for a failed command. */
  toReply(): Record<string, unknown> {
    return { ok: 0, errmsg: this.message, code: this.code, codeName: this.codeName, ...this.extra };
  }

  /** An entry of a write command's writeErrors array. */
  toWriteError(index: number): Record<string, unknown> {
    return { index, code: this.code, errmsg: this.message, ...this.extra };
  }
}

/** Wraps anything thrown by mingo or our own code into a command error. */
export function toCommandError(error: unknown): MongoCommandError {
  if (error instanceof MongoCommandError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MongoCommandError("BadValue", message);
}
