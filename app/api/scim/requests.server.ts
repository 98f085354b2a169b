import { type ScimPatchOperation, type ScimResource, scimPatch } from "scim-patch";
import { parse as parseFilter } from "scim2-parse-filter";
import { z } from "zod";
import { allowListed, type ResourceAttributes } from "./patch-paths";
import { DEFAULT_COUNT, MAX_COUNT, PATCH_SCHEMA, scimError } from "./protocol";

/**
 * What a SCIM request carries, read with the libraries made for it (scim2-parse-filter for `filter`; scim-patch applies
 * the PATCH operations, users.server.ts and groups.server.ts) and checked with zod: the list parameters and the PATCH
 * body. Bounded: a filter of at most 1,000 characters, pages of at most MAX_COUNT.
 */

/** Who calls: the SCIM token's administrator as the audit trail's actor, and the token as `via`. */
export type ScimCall = {
  base: string;
  actor: { email: string; name: string; type: string };
  via: string;
};

export type ListQuery = { startIndex: number; count: number; equals: Record<string, string> };

const listParams = z.object({
  startIndex: z.coerce.number().int().min(1).max(1e9).optional(),
  count: z.coerce.number().int().min(0).max(1e9).optional(),
  filter: z.string().max(1000).optional(),
});

/**
 * The list parameters: paging (startIndex from 1; count capped at MAX_COUNT, RFC 7644 §3.4.2.4) and a filter of one
 * `eq` on one of `attributes` (the attribute's name, case-insensitive, to the key it is answered under) — what Okta and
 * Microsoft Entra ID send to find a user or a group. Any other filter is refused (400 invalidFilter), never guessed.
 */
export function parseListQuery(url: URL, attributes: Record<string, string>): ListQuery | { error: Response } {
  const parsed = listParams.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return { error: scimError(400, "Parâmetros de listagem inválidos.", "invalidValue") };
  const startIndex = parsed.data.startIndex ?? 1;
  const count = Math.min(parsed.data.count ?? DEFAULT_COUNT, MAX_COUNT);
  const equals: Record<string, string> = {};
  if (parsed.data.filter?.trim()) {
    let ast: ReturnType<typeof parseFilter>;
    try {
      ast = parseFilter(parsed.data.filter);
    } catch {
      return { error: scimError(400, "Filtro SCIM inválido.", "invalidFilter") };
    }
    const key =
      ast.op === "eq" && "attrPath" in ast
        ? Object.entries(attributes).find(([name]) => name.toLowerCase() === ast.attrPath.toLowerCase())?.[1]
        : undefined;
    const value = ast.op === "eq" && "compValue" in ast ? ast.compValue : null;
    if (!key || typeof value !== "string")
      return {
        error: scimError(400, `Filtro não suportado: use ${Object.keys(attributes)[0]} eq "valor".`, "invalidFilter"),
      };
    equals[key] = value;
  }
  return { startIndex, count, equals };
}

const operation = z.object({
  op: z
    .string()
    .transform((op) => op.toLowerCase())
    .pipe(z.enum(["add", "remove", "replace"])),
  path: z.string().max(500).optional(),
  value: z.unknown().optional(),
});

/** The most operations one PATCH holds. */
const MAX_OPERATIONS = 100;

const patchBody = z.object({
  schemas: z.array(z.string()).refine((list) => list.includes(PATCH_SCHEMA)),
  Operations: z.array(operation).min(1).max(MAX_OPERATIONS),
});

export type PatchOperation = z.infer<typeof operation>;

/**
 * The PATCH body's operations, `op` in lower case (Entra sends "Replace"), rebuilt from the allow-list of `resource`
 * (patch-paths.ts): a malformed body is 400 invalidSyntax, an attribute the portal does not keep 400 invalidPath.
 */
export function patchOperations(
  body: unknown,
  resource: ResourceAttributes,
): { list: PatchOperation[] } | { error: Response } {
  const refused = () => ({ error: scimError(400, "Corpo de PATCH inválido (RFC 7644 §3.5.2).", "invalidSyntax") });
  // Refused on its length before zod reads every entry (one issue each, seconds for 10⁶ of them) to say the same.
  const listed = (body as { Operations?: unknown } | null)?.Operations;
  if (Array.isArray(listed) && listed.length > MAX_OPERATIONS) return refused();
  const parsed = patchBody.safeParse(body);
  if (!parsed.success) return refused();
  const allowed = allowListed(resource, parsed.data.Operations);
  if ("refusal" in allowed) return { error: scimError(400, allowed.refusal.detail, allowed.refusal.scimType) };
  return { list: allowed.list as PatchOperation[] };
}

/**
 * `operations` (only as `patchOperations` rebuilt them) applied by scim-patch to a copy of `resource` (as SCIM shows
 * it); a refused PATCH is 400 invalidValue.
 */
export function applyPatch<T extends object>(
  resource: T,
  operations: PatchOperation[],
): { patched: T } | { error: Response } {
  try {
    const copy = structuredClone(resource) as unknown as ScimResource;
    const patched = scimPatch(copy, operations as ScimPatchOperation[], {
      mutateDocument: true,
      treatMissingAsAdd: true,
    });
    return { patched: patched as unknown as T };
  } catch (error) {
    return {
      error: scimError(400, error instanceof Error ? error.message.slice(0, 300) : "PATCH inválido.", "invalidValue"),
    };
  }
}
