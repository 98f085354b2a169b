import { z } from "zod";

/** The most pages a list may be asked for (keeps skip within what a database answers quickly). */
const MAX_PAGE = 1_000_000;

/** The `page` search parameter of every paged list: a positive integer written in digits, else page 1. */
export const pageNumber = z
  .string()
  .regex(/^\d{1,7}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_PAGE))
  .catch(1);

/**
 * Page and page size of a server-paged list from the URL (`page`, `pageSize`): the first page is 1 and the
 * size is one of `sizes`; anything else (missing, text, 0, a size not offered) falls back to 1 and `sizes[0]`.
 */
export function parsePaging<Size extends number>(url: URL, sizes: readonly Size[]): { page: number; pageSize: Size } {
  const { page, pageSize } = pagingSchema(sizes).parse({
    page: url.searchParams.get("page") ?? undefined,
    pageSize: url.searchParams.get("pageSize") ?? undefined,
  });
  return { page, pageSize: pageSize as Size };
}

/** One schema per list of sizes, built on first use: a zod object costs more to build than to run. */
const pagingSchemas = new Map<string, z.ZodType<{ page: number; pageSize: number }, z.ZodTypeDef, unknown>>();

function pagingSchema(sizes: readonly number[]) {
  const key = sizes.join(",");
  let schema = pagingSchemas.get(key);
  if (!schema) {
    schema = z.object({
      page: pageNumber,
      pageSize: z.coerce
        .number()
        .int()
        .refine((n) => sizes.includes(n))
        .catch(sizes[0]),
    });
    pagingSchemas.set(key, schema);
  }
  return schema;
}

/**
 * One page of a list and the list's size, read together. A page past the end (a stale link, or a list that
 * shrank) answers the last page instead of an empty table. `maxRows` caps what the list shows (the spec's
 * listing limit), and so where its last page is.
 */
export async function readPageOrLast<T>(
  requested: number,
  pageSize: number,
  readPage: (page: number) => Promise<T[]>,
  countAll: () => Promise<number>,
  maxRows = Number.POSITIVE_INFINITY,
): Promise<{ rows: T[]; total: number; page: number; pageCount: number }> {
  const [rows, total] = await Promise.all([readPage(requested), countAll()]);
  const pageCount = Math.max(1, Math.ceil(Math.min(total, maxRows) / pageSize));
  if (rows.length === 0 && requested > pageCount)
    return { rows: await readPage(pageCount), total, page: pageCount, pageCount };
  return { rows, total, page: requested, pageCount };
}
