import type { z } from "zod";

/**
 * The API's opaque page cursor: where the next page starts (the sort key of the last item given), base64url of a
 * small JSON array the server alone reads, checked against the list's own schema. A cursor that does not decode is
 * refused (400), never guessed at.
 */

export function encodeCursor(key: ReadonlyArray<string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString("base64url");
}

export function decodeCursor<T extends z.ZodTypeAny>(text: string, schema: T): z.infer<T> | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const checked = schema.safeParse(parsed);
  return checked.success ? checked.data : null;
}
