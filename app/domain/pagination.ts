import { z } from "zod";

/** The most pages a list may be asked for (keeps skip within what a database answers quickly). */
export const MAX_PAGE = 1_000_000;

/**
 * Page and page size of a server-paged list from the URL (`page`, `pageSize`): the first page is 1 and the
 * size is one of `sizes`; anything else (missing, text, 0, a size not offered) falls back to 1 and `sizes[0]`.
 */
export function parsePaging(url: URL, sizes: readonly number[]): { page: number; pageSize: number } {
  const schema = z.object({
    page: z.coerce.number().int().min(1).max(MAX_PAGE).catch(1),
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => sizes.includes(n))
      .catch(sizes[0]),
  });
  return schema.parse({ page: url.searchParams.get("page") ?? undefined, pageSize: url.searchParams.get("pageSize") ?? undefined });
}
