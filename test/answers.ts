/**
 * What a loader or an action answered, read the same way by every in-process route test: a `data()` result (single
 * fetch) as status, body and headers; a Response thrown or returned as the Response.
 */

export type DataAnswer<Body = unknown> = { status: number; body: Body };

/**
 * The body a loader or action answers with: what it passes to `data()` or returns bare, its Responses left out; a
 * union when it answers in several shapes (narrow it, or name the shape a test expects instead).
 */
export type BodyOf<Route extends (...args: never[]) => unknown> = AnswerBody<Awaited<ReturnType<Route>>>;
type AnswerBody<Answer> = Answer extends Response
  ? never
  : Answer extends { type: string; data: infer Body; init: ResponseInit | null }
    ? Body
    : Answer;

/** Whether `value` is what `data(body, init)` returns. */
export function isDataResult(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return !!value && typeof value === "object" && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/**
 * A `data()` result as status and body; a plain object (a loader's bare answer) as 200 with it as the body. A
 * Response is not data: it throws, so a redirect where data was expected fails the test.
 */
export function dataAnswer<Body = unknown>(value: unknown): DataAnswer<Body> {
  if (value instanceof Response) throw new Error(`expected data, got a ${value.status} Response`);
  if (isDataResult(value)) return { status: value.init?.status ?? 200, body: value.data as Body };
  return { status: 200, body: value as Body };
}

/** The headers a `data()` result sets (none for a plain object). */
export function dataHeaders(value: unknown): Headers {
  return new Headers(isDataResult(value) ? value.init?.headers : undefined);
}

/** The Response a loader or action throws (a redirect, 403, 404…); fails when it throws nothing or something else. */
export async function thrownResponse(promise: unknown): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}

/** The Response a loader or action returns or throws. */
export async function responseOf(promise: Promise<unknown>): Promise<Response> {
  try {
    return (await promise) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
