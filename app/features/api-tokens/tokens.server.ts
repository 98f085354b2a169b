import { data } from "@remix-run/node";
import { ObjectId } from "mongodb";
import { z } from "zod";
import { TOKEN_ADMIN_TYPE } from "~/access";
import { getConfig } from "~/config.server";
import {
  type ApiTokenRecord,
  countLiveApiTokens,
  findApiToken,
  insertApiToken,
  listApiTokens,
  revokeApiToken,
  TOKEN_KINDS,
  TOKEN_SCOPES,
} from "~/models/api-tokens.server";
import { recordAudit } from "~/platform/audit/record.server";
import type { AuthenticatedUser } from "~/platform/auth/auth.server";
import { formatDateTime } from "~/shared/dates";
import { pageNumber } from "~/shared/pagination";
import { DEFAULT_SCIM_TOKEN_LIFE, DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS, SCIM_TOKEN_LIVES } from "./lifetimes";
import { tokenTexts } from "./texts";

/**
 * The server side of /user/tokens: a user's own personal API tokens (create, list, revoke); SYSTEM ADMIN also sees and
 * revokes everyone's (`?todos=1`). The owner always comes from the session, never from the form.
 */

export const TOKENS_PATH = "/user/tokens";
export const SCIM_TOKENS_PATH = "/user/tokens?scim=1";
export const TOKEN_PAGE_SIZE = 20;
/** Live tokens one user may hold at once (docs/decisions.md "API tokens"). */
export const MAX_LIVE_TOKENS = 20;
const DAY_MS = 86_400_000;

export type TokenRow = {
  id: string;
  name: string;
  owner: string;
  scope: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  state: "live" | "expired" | "revoked";
};

export type TokensPageData = {
  enabled: boolean;
  all: boolean;
  /** The SCIM tokens (SYSTEM ADMIN, `?scim=1`) instead of personal ones. */
  scim: boolean;
  /** The absolute address an identity provider is given (from APP_ORIGIN), shown on the SCIM view. */
  scimBaseUrl: string;
  canSeeAll: boolean;
  rows: TokenRow[];
  total: number;
  page: number;
  pageCount: number;
};

export function tokenState(
  token: Pick<ApiTokenRecord, "revokedAt" | "expiresAt">,
  now = new Date(),
): TokenRow["state"] {
  if (token.revokedAt) return "revoked";
  return token.expiresAt && token.expiresAt.getTime() <= now.getTime() ? "expired" : "live";
}

function toRow(token: ApiTokenRecord, now: Date): TokenRow {
  return {
    id: String(token._id),
    name: token.name,
    owner: token.owner ?? "",
    scope: token.scope,
    hint: token.hint,
    createdAt: formatDateTime(token.createdAt),
    lastUsedAt: token.lastUsedAt ? formatDateTime(token.lastUsedAt) : tokenTexts.never,
    expiresAt: token.expiresAt ? formatDateTime(token.expiresAt) : tokenTexts.noExpiry,
    state: tokenState(token, now),
  };
}

const seesAll = (user: AuthenticatedUser, url: URL) =>
  user.type === TOKEN_ADMIN_TYPE && url.searchParams.get("todos") === "1";
const seesScim = (user: AuthenticatedUser, url: URL) =>
  user.type === TOKEN_ADMIN_TYPE && url.searchParams.get("scim") === "1";

/** `scimBaseUrl`: the absolute SCIM address the route gives (app/api/scim/base-url.server.ts). */
export async function loadTokensPage(user: AuthenticatedUser, url: URL, scimBaseUrl: string): Promise<TokensPageData> {
  const scim = seesScim(user, url);
  const all = !scim && seesAll(user, url);
  const page = pageNumber.parse(url.searchParams.get("page") ?? undefined);
  const skip = (page - 1) * TOKEN_PAGE_SIZE;
  const query = scim ? { kind: "scim" as const } : { kind: "personal" as const, ...(all ? {} : { owner: user.email }) };
  let result = await listApiTokens({ ...query, skip, limit: TOKEN_PAGE_SIZE });
  const pageCount = Math.max(1, Math.ceil(result.total / TOKEN_PAGE_SIZE));
  // A page past the end shows the last one (a stale link, a list that shrank).
  if (page > pageCount)
    result = await listApiTokens({ ...query, skip: (pageCount - 1) * TOKEN_PAGE_SIZE, limit: TOKEN_PAGE_SIZE });
  const now = new Date();
  return {
    enabled: getConfig().apiTokens,
    all,
    scim,
    scimBaseUrl: scim ? scimBaseUrl : "",
    canSeeAll: user.type === TOKEN_ADMIN_TYPE,
    rows: result.rows.map((t) => toRow(t, now)),
    total: result.total,
    page: Math.min(page, pageCount),
    pageCount,
  };
}

const createSchema = z.object({
  intent: z.literal("create"),
  kind: z.enum(TOKEN_KINDS).default("personal"),
  name: z
    .string({ message: tokenTexts.errors.name })
    .transform((s) => s.trim())
    .pipe(z.string().min(1, tokenTexts.errors.name).max(80, tokenTexts.errors.name)),
  /** Read by the kind's own schema below (personalDays, scimLife). */
  days: z.string().max(20, tokenTexts.errors.days).optional(),
  scope: z.enum(TOKEN_SCOPES, { message: tokenTexts.errors.scope }).optional(),
});

/** A personal token's life: 1 to 365 days, 90 when none is given. */
const personalDays = z.preprocess(
  (v) => (v === undefined || v === "" ? DEFAULT_TOKEN_DAYS : v),
  z.coerce
    .number({ message: tokenTexts.errors.days })
    .int(tokenTexts.errors.days)
    .min(1, tokenTexts.errors.days)
    .max(MAX_TOKEN_DAYS, tokenTexts.errors.days),
);

/** A SCIM token's life: 90 (when none is given), 180 or 365 days, or "never". */
const scimLife = z.preprocess(
  (v) => (v === undefined || v === "" ? DEFAULT_SCIM_TOKEN_LIFE : v),
  z.enum(SCIM_TOKEN_LIVES, { message: tokenTexts.errors.scimDays }),
);

const revokeSchema = z.object({
  intent: z.literal("revoke"),
  id: z.string().regex(/^[0-9a-f]{24}$/i, tokenTexts.errors.notFound),
});

const actionSchema = z.discriminatedUnion("intent", [createSchema, revokeSchema]);

export type TokensActionData =
  | { ok: "created"; id: string; secret: string; name: string; expiresAt: string }
  | { ok: "revoked"; message: string }
  | { error: string; fields?: Record<string, string> };

const tokenObject = (token: ApiTokenRecord) => ({ kind: "token" as const, id: String(token._id), label: token.name });

export async function tokensAction(user: AuthenticatedUser, request: Request) {
  const form = Object.fromEntries(await request.formData());
  const parsed = actionSchema.safeParse(form);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? "form")] ??= issue.message;
    const first = Object.values(fields)[0] ?? tokenTexts.errors.name;
    return data<TokensActionData>({ error: first, fields }, { status: 400 });
  }
  if (!getConfig().apiTokens) return data<TokensActionData>({ error: tokenTexts.disabled }, { status: 403 });
  if (parsed.data.intent === "create") {
    const scim = parsed.data.kind === "scim";
    // A SCIM token is SCIM's administrator's to make; it always writes (a directory creates and changes users).
    if (scim && user.type !== TOKEN_ADMIN_TYPE)
      return data<TokensActionData>({ error: tokenTexts.errors.scimAdminOnly }, { status: 403 });
    const scope = scim ? "write" : parsed.data.scope;
    if (!scope)
      return data<TokensActionData>(
        { error: tokenTexts.errors.scope, fields: { scope: tokenTexts.errors.scope } },
        { status: 400 },
      );
    const life = scim ? scimLife.safeParse(parsed.data.days) : personalDays.safeParse(parsed.data.days);
    if (!life.success) {
      const message = life.error.issues[0]?.message ?? tokenTexts.errors.days;
      return data<TokensActionData>({ error: message, fields: { days: message } }, { status: 400 });
    }
    const days = life.data === "never" ? null : Number(life.data);
    if (!scim && (await countLiveApiTokens(user.email)) >= MAX_LIVE_TOKENS)
      return data<TokensActionData>({ error: tokenTexts.errors.limit(MAX_LIVE_TOKENS) }, { status: 409 });
    const now = new Date();
    const { record, secret } = await insertApiToken(
      {
        kind: parsed.data.kind,
        owner: scim ? null : user.email,
        name: parsed.data.name,
        scope,
        expiresAt: days === null ? null : new Date(now.getTime() + days * DAY_MS),
        createdBy: user.email,
      },
      now,
    );
    await recordAudit({
      actor: user,
      event: "tokenCreated",
      object: tokenObject(record),
      outcome: "ok",
      details: {
        kind: record.kind,
        scope: record.scope,
        days: days ?? "never",
        expiresAt: record.expiresAt?.toISOString() ?? null,
      },
    });
    return data<TokensActionData>(
      {
        ok: "created",
        id: String(record._id),
        secret,
        name: record.name,
        expiresAt: record.expiresAt ? formatDateTime(record.expiresAt) : tokenTexts.noExpiry,
      },
      { headers: { "Cache-Control": "no-store" } },
    );
  }
  const token = await findApiToken(parsed.data.id);
  if (!token) return data<TokensActionData>({ error: tokenTexts.errors.notFound }, { status: 404 });
  if ((token.kind === "scim" || token.owner !== user.email) && user.type !== TOKEN_ADMIN_TYPE)
    return data<TokensActionData>({ error: tokenTexts.errors.notYours }, { status: 403 });
  const before = await revokeApiToken(new ObjectId(parsed.data.id), user.email);
  if (!before) return data<TokensActionData>({ error: tokenTexts.errors.alreadyRevoked }, { status: 409 });
  await recordAudit({
    actor: user,
    event: "tokenRevoked",
    object: tokenObject(before),
    outcome: "ok",
    details: { owner: before.owner },
  });
  return data<TokensActionData>({ ok: "revoked", message: tokenTexts.revoked(before.name) });
}
