import crypto from "node:crypto";
import { createCookie, type ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/router";
import type { Db } from "mongodb";
import {
  canAccessRoute,
  DEFAULT_HR_EDITOR_TYPES,
  type Features,
  isRouteId,
  type PermissionType,
  type RouteId,
  routeRule,
} from "~/access";
import { parseConfig } from "~/config.server";
import { routeTree } from "~/platform/auth/return-to.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from "~/seed/accounts";
import { signDownloadToken } from "~/services/storage/signed-link.server";

/**
 * The access matrix, generated from the BUILT route manifest (build/server), not from a hand-written list: every
 * route × every demo account (and anonymous) × the spellings people and attackers type × GET and POST. The expected
 * outcome of each probe comes from the access table (app/access.ts) applied to the route(s) the router itself matches
 * for that spelling (Remix's own matcher: case-insensitive, on the decoded path, `.data` stripped): anonymous → a
 * redirect to sign-in; a session whose type was emptied → the expired-session redirect; a type the matched route does
 * not admit → 403; an admitted type → anything but 403, a sign-in redirect or a 5xx. Every refused POST carries a
 * body that would change data if it were let through; the database is compared before and after. Every spelling is
 * probed where the rule refuses; where it admits, the core spellings (canonical, upper case, .data) only.
 *
 * The probes go through a `Send`: the unit tier drives the host's Express app in-process with the exact bytes of the
 * target (test/access-matrix.test.ts); the browser tier sends a few over a socket (test/e2e/access-probes.e2e.ts).
 */

export type Reply = {
  status: number;
  location: string | null;
  body: string;
  setCookie?: string[];
  contentType?: string;
};
/**
 * Sends one request with the exact target bytes, as a browser or a script would (the portal's Origin on POSTs);
 * `headers` replace or add to those.
 */
export type Send = (
  target: string,
  method: "GET" | "POST",
  cookie: string | null,
  body?: string,
  headers?: Record<string, string>,
) => Promise<Reply>;

/** What a matrix runs against: the build's routes, the portal's database, and a way to reach the host. */
export type MatrixTarget = {
  manifest: ServerBuild;
  db: Db;
  sessionSecret: string;
  /** The portal's origin (APP_ORIGIN): matched URLs are resolved against it. */
  origin: string;
  send: Send;
  /** Probes in flight at once. */
  concurrency: number;
};

export type Account = { label: string; type: PermissionType | "" | null; cookie: string | null };
/** `unauthorized`: a token route (the API) answers 401 to anything but a bearer token: a session opens nothing there. */
export type Outcome = "pass" | "login" | "expired" | "forbidden" | "unauthorized";

/** The flags as the portal runs by default (every area on). */
export const ALL_ON: Features = parseConfig({}).features;

/** Collections that change on reads or by the test's own sign-ins; everything else must not move. */
// (The native dashboards' figure cache is written by their reads, by design: engine branch, e7edaca.)
export const VOLATILE_COLLECTIONS = new Set([
  "sessions",
  "login_attempts",
  "mail_outbox",
  "password_reset_codes",
  "dashboard_chart_cache",
  "data_versions",
  // The audit trail records every refusal of the guard and every sign-in by design.
  "audit_log",
  "audit_days",
  // Repeated refusals of one user, route and minute are counted there before their summary entry.
  "audit_refusal_counts",
  // The worker's scheduled tasks stamp their runs on their own timer; the forecast reminder (in the last days of an
  // edit month) writes its notices and their mail, and the dispatcher marks mail sent, whatever the probes do.
  "scheduled_tasks",
  "forecast_reminders",
  "notices",
  "notice_mail",
]);

type ManifestRoute = ServerBuild["routes"][string];
type Tree = ReturnType<typeof routeTree>[number];

/** The full path pattern of a route: its ancestors' paths joined, as segments (static or parameter). */
export function patternOf(routes: ServerBuild["routes"], id: string): string[] {
  const parts: string[] = [];
  for (
    let route: ManifestRoute | undefined = routes[id];
    route;
    route = route.parentId ? routes[route.parentId] : undefined
  ) {
    if (route.path) parts.unshift(...route.path.split("/").filter(Boolean));
  }
  return parts;
}

export type Segment = { text: string; isStatic: boolean };

// ---------------------------------------------------------------------------------------------
// Spellings: each turns the canonical segments into the raw request target

const join = (segments: Segment[]) => `/${segments.map((s) => s.text).join("/")}`;
const mapStatic = (segments: Segment[], f: (t: string) => string) =>
  segments.map((s) => (s.isStatic ? { ...s, text: f(s.text) } : s));
const percentFirstLetter = (segments: Segment[]) => {
  let done = false;
  return mapStatic(segments, (t) => {
    const i = t.search(/[a-z]/i);
    if (done || i < 0) return t;
    done = true;
    return `${t.slice(0, i)}%${t.charCodeAt(i).toString(16)}${t.slice(i + 1)}`;
  });
};
const dataPath = (p: string) => (p === "/" ? "/_root.data" : `${p}.data`);

const SPELLINGS: Record<string, (segments: Segment[], routeId: string) => string> = {
  canonical: (s) => join(s),
  upper: (s) => join(mapStatic(s, (t) => t.toUpperCase())),
  mixed: (s) => join(mapStatic(s, (t) => t.charAt(0).toUpperCase() + t.slice(1))),
  percentEncoded: (s) => join(percentFirstLetter(s)),
  doubleSlash: (s) => `/${join(s)}`,
  trailingSlash: (s) => `${join(s)}/`,
  dotSegment: (s) => `/.${join(s)}`,
  dotDotSegment: (s) => `/x/..${join(s)}`,
  data: (s) => dataPath(join(s)),
  upperData: (s) => dataPath(join(mapStatic(s, (t) => t.toUpperCase()))),
  legacyData: (s, id) => `${join(s)}?_data=${encodeURIComponent(id)}`,
  indexParam: (s) => `${join(s)}?index`,
  matrixParam: (s) => `${join(s)};x=1`,
};

/** A session record for `email` written straight into the database, with its signed cookie (for accounts that cannot sign in). */
async function forgedSession(db: Db, secret: string, email: string): Promise<string> {
  const id = crypto.randomBytes(24).toString("base64url");
  const now = new Date();
  await db.collection("sessions").insertOne({
    _id: id as never,
    email,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(now.getTime() + 3600_000),
    absoluteExpiresAt: new Date(now.getTime() + 3600_000),
  });
  const cookie = createCookie("__session", { secrets: [secret], httpOnly: true, sameSite: "lax", path: "/" });
  return (await cookie.serialize(id)).split(";")[0];
}

/** Signs `email` in through the sign-in form and returns its session cookie. */
export async function signInCookie(send: Send, email: string): Promise<string> {
  const reply = await sendForCookie(send, email);
  if (!reply) throw new Error(`sign-in of ${email} gave no session`);
  return reply;
}

async function sendForCookie(send: Send, email: string): Promise<string | null> {
  const body = new URLSearchParams({ intent: "signIn", email, password: DEMO_PASSWORD }).toString();
  const reply = await send("/?index", "POST", null, body);
  return reply.setCookie?.find((c) => c.startsWith("__session="))?.split(";")[0] ?? null;
}

/** Anonymous plus every demo account, each with a session. */
export async function accountsFor(target: MatrixTarget): Promise<Account[]> {
  const accounts: Account[] = [{ label: "anonymous", type: null, cookie: null }];
  for (const demo of DEMO_ACCOUNTS) {
    // notype cannot sign in (CONTATE SEU ADMIN) and firstaccess must first set a password: their sessions are
    // written directly, as if they had one when the type was emptied or before the password change was forced.
    const cookie =
      demo.type === "" || demo.mustChangePassword
        ? await forgedSession(target.db, target.sessionSecret, demo.email)
        : await signInCookie(target.send, demo.email);
    accounts.push({ label: demo.email, type: demo.type, cookie });
  }
  return accounts;
}

export async function pool<T>(items: T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

export type Probe = { routeId: string; spelling: string; target: string; method: "GET" | "POST" };

export async function sampleParams(db: Db, secret: string): Promise<Record<string, Record<string, string>>> {
  const dashboard = await db.collection("dashboards").findOne({ panelType: 1 });
  const jobsDashboard = await db.collection("dashboards").findOne({ panelType: 2 });
  const file = await db.collection("files").findOne({});
  const token = signDownloadToken(
    {
      bucket: String(file?.bucket ?? "local"),
      key: String(file?.originalFile ?? "x"),
      filename: "a.csv",
      expiresAt: Date.now() + 3600_000,
    },
    secret,
  );
  return {
    "routes/ij.painel.$id": { id: String(dashboard?.painelId ?? 1) },
    "routes/jobs.dashboard.$id": { id: String(jobsDashboard?.painelId ?? 1) },
    "routes/download.$token": { token },
    "routes/recovery.$code": { code: "123456" },
  };
}

export function segmentsFor(
  manifest: ServerBuild,
  id: string,
  samples: Record<string, Record<string, string>>,
): Segment[] {
  const own = Object.entries(samples).find(([routeId]) => id === routeId || id.startsWith(`${routeId}.`))?.[1] ?? {};
  return patternOf(manifest.routes, id).map((part) => {
    if (part === "*") return { text: "nao-existe", isStatic: false };
    if (part.startsWith(":")) return { text: encodeURIComponent(own[part.slice(1)] ?? "x"), isStatic: false };
    return { text: part, isStatic: true };
  });
}

/** A form that would change data if the route let it through (the refused probes send it). */
const MUTATING_BODIES: Record<string, string> = {
  "routes/user.config": "intent=delete&email=silver%40demo.local",
  "routes/user.permission": "intent=setTier&user=explorer%40demo.local&tier=USER+GOLD",
  "routes/jobs.executados": "intent=retry&fileId=000000000000000000000000",
  "routes/captura.processando": "intent=retry&fileId=000000000000000000000000",
};

export type Matched = { ids: string[]; actionTarget: string | null; resourceLeaf: boolean };

export function matchedRoutes(tree: Tree[], manifest: ServerBuild, base: URL, target: string): Matched | null {
  // As @remix-run/express builds it: origin + the raw target (so "//user" stays a path, not a host).
  const url = new URL(`${base.origin}${target}`);
  let pathname = url.pathname;
  if (pathname.endsWith(".data")) pathname = pathname.replace(/\.data$/, "").replace(/^\/_root$/, "/");
  const matches = matchRoutes(tree, pathname);
  if (!matches) return null;
  const ids = matches.map((m) => (m.route as Tree).id);
  const leaf = matches[matches.length - 1];
  const nakedIndex = url.searchParams.getAll("index").some((v) => v === "");
  const target$ =
    leaf.route.index && nakedIndex
      ? leaf
      : matches.filter((m, i) => i === 0 || (m.route.path && m.route.path.length > 0)).pop()!;
  const targetId = (target$.route as Tree).id;
  return { ids, actionTarget: targetId, resourceLeaf: !manifest.routes[(leaf.route as Tree).id].module.default };
}

/** `write` for POSTs: a route's saving actions need its write rule on top of reading (docs/access.md). */
export function ruleOutcome(
  id: string,
  account: Account,
  features: Features,
  mode: "read" | "write" = "read",
): Outcome {
  if (!isRouteId(id)) throw new Error(`${id} is in the build but has no rule in app/access.ts`);
  const context = { features, hrEditorTypes: DEFAULT_HR_EDITOR_TYPES };
  if (routeRule(id).kind === "public") return "pass";
  if (routeRule(id).kind === "token") return "unauthorized";
  if (account.type === null) return "login";
  if (account.type === "") return "expired";
  return canAccessRoute(account.type, id as RouteId, context, mode) ? "pass" : "forbidden";
}

/** What the routes that run for this request decide, in the order Remix lets them answer. */
export function expectedOutcome(
  matched: Matched | null,
  manifest: ServerBuild,
  method: "GET" | "POST",
  data: boolean,
  account: Account,
  features: Features,
): Outcome | "noHandler" {
  if (!matched) return "pass";
  if (method === "POST") {
    const target = matched.actionTarget!;
    if (!manifest.routes[target].module.action) return "noHandler";
    return ruleOutcome(target, account, features, "write");
  }
  const leaf = matched.ids[matched.ids.length - 1];
  // A document request for a resource route runs its loader alone (none: Remix answers 400); `.data` and
  // document requests for a page run the loaders of every matched route.
  if (matched.resourceLeaf && !data && !manifest.routes[leaf].module.loader) return "noHandler";
  const running =
    matched.resourceLeaf && !data ? [leaf] : matched.ids.filter((id) => manifest.routes[id].module.loader);
  const outcomes = running.map((id) => ruleOutcome(id, account, features));
  for (const o of ["unauthorized", "login", "expired", "forbidden"] as const) if (outcomes.includes(o)) return o;
  return "pass";
}

export function isSignInRedirect(reply: Reply, expired: boolean): boolean {
  const want = expired ? /^\/\?expired=1/ : /^\/(\?|$)/;
  if (reply.status === 302 || reply.status === 303) return !!reply.location && want.test(reply.location);
  // Single fetch (.data) answers a redirect as 202 with the location in the payload.
  if (reply.status === 202) return expired ? reply.body.includes("/?expired=1") : /"\/(\?[^"]*)?"/.test(reply.body);
  return false;
}

export function judge(
  expected: Outcome | "noHandler",
  reply: Reply,
  legacy: boolean,
  signedIn: boolean,
): string | null {
  if (reply.status >= 500) return `answered ${reply.status}`;
  if (legacy) return reply.status === 400 ? null : `legacy ?_data answered ${reply.status}, expected 400`;
  switch (expected) {
    case "login":
      return isSignInRedirect(reply, false) || isSignInRedirect(reply, true)
        ? null
        : `expected a sign-in redirect, got ${reply.status} ${reply.location ?? ""}`;
    case "expired":
      return isSignInRedirect(reply, true)
        ? null
        : `expected the expired-session redirect, got ${reply.status} ${reply.location ?? ""}`;
    case "forbidden":
      return reply.status === 403 ? null : `expected 403, got ${reply.status} ${reply.location ?? ""}`;
    case "unauthorized":
      return reply.status === 401 ? null : `expected 401, got ${reply.status} ${reply.location ?? ""}`;
    case "noHandler":
      return [400, 403, 404, 405].includes(reply.status) ||
        isSignInRedirect(reply, false) ||
        isSignInRedirect(reply, true)
        ? null
        : `a request for a method the route has no handler for answered ${reply.status}`;
    case "pass":
      if (reply.status === 403) return "refused (403) a type the route admits";
      return signedIn && isSignInRedirect(reply, true) ? "sent an admitted type to sign-in" : null;
  }
}

export async function snapshot(db: Db): Promise<string> {
  const hash = crypto.createHash("sha256");
  for (const { name } of (await db.listCollections({}, { nameOnly: true }).toArray()).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (VOLATILE_COLLECTIONS.has(name)) continue;
    hash.update(name);
    for (const doc of await db.collection(name).find({}).sort({ _id: 1 }).toArray()) hash.update(JSON.stringify(doc));
  }
  return hash.digest("hex");
}

export type RunResult = { cases: number; refused: number; failures: string[] };

/** The spellings probed where a rule admits (see runMatrix). */
export const CORE_SPELLINGS = ["canonical", "upper", "data"];

export async function runMatrix(
  target: MatrixTarget,
  options: {
    features: Features;
    routeFilter?: (id: string) => boolean;
    methods?: Array<"GET" | "POST">;
    spellings?: string[];
    refusalSpellings?: string[];
    /** Only the first probe of each route, method and kind of refusal (the legacy `?_data` is one kind); none admitted. */
    onePerRefusal?: boolean;
  },
): Promise<RunResult> {
  const { manifest, db, send } = target;
  const tree = routeTree(manifest.routes);
  const base = new URL(target.origin);
  {
    const accounts = await accountsFor(target);
    const samples = await sampleParams(db, target.sessionSecret);
    const probes: Probe[] = [];
    for (const id of Object.keys(manifest.routes)) {
      if (id === "root" || (options.routeFilter && !options.routeFilter(id))) continue;
      const segments = segmentsFor(manifest, id, samples);
      for (const [spelling, spell] of Object.entries(SPELLINGS)) {
        if (options.refusalSpellings && !options.refusalSpellings.includes(spelling)) continue;
        for (const method of options.methods ?? (["GET", "POST"] as const))
          probes.push({ routeId: id, spelling, target: spell(segments, id), method });
      }
    }
    const before = await snapshot(db);
    const failures: string[] = [];
    let cases = 0;
    let refused = 0;
    const sampled = new Set<string>();
    // Public POSTs with a session (logout!) would end the test's own sessions: they are probed anonymously only.
    const work = probes.flatMap((probe) => accounts.map((account) => ({ probe, account })));
    // The router's match of a target is the same for every account (matching flattens the whole tree each time).
    const matches = new Map<string, Matched | null>();
    const matchOf = (target: string) => {
      if (!matches.has(target)) matches.set(target, matchedRoutes(tree, manifest, base, target));
      return matches.get(target) ?? null;
    };
    await pool(work, target.concurrency, async ({ probe, account }) => {
      const matched = matchOf(probe.target);
      const legacy = probe.spelling === "legacyData";
      const isData = new URL(`${base.origin}${probe.target}`).pathname.endsWith(".data");
      const expected = expectedOutcome(matched, manifest, probe.method, isData, account, options.features);
      const publicTarget =
        matched &&
        probe.method === "POST" &&
        matched.actionTarget &&
        ruleOutcome(matched.actionTarget, { label: "", type: null, cookie: null }, options.features) === "pass";
      if (probe.method === "POST" && publicTarget && account.cookie) return;
      const isRefusal =
        expected === "login" || expected === "expired" || expected === "forbidden" || expected === "unauthorized";
      // Every spelling is tried where the rule refuses (the attacker's case); where it admits, the core
      // spellings show the page answers, and the others would only repeat them (a 200 or a 404 either way).
      if (!isRefusal && !legacy && !(options.spellings ?? CORE_SPELLINGS).includes(probe.spelling)) return;
      if (options.onePerRefusal) {
        const kind = `${probe.routeId} ${probe.method} ${legacy ? "legacy" : expected}`;
        if ((!isRefusal && !legacy) || sampled.has(kind)) return;
        sampled.add(kind);
      }
      const body =
        probe.method === "POST"
          ? isRefusal
            ? (MUTATING_BODIES[matched?.actionTarget ?? ""] ?? "intent=x")
            : ""
          : undefined;
      const reply = await send(probe.target, probe.method, account.cookie, body);
      cases++;
      if (isRefusal) refused++;
      const problem = judge(expected, reply, legacy, !!account.type);
      if (problem)
        failures.push(
          `${account.label} ${probe.method} ${probe.target} (${probe.routeId}, ${probe.spelling}; matched ${matched?.ids.at(-1) ?? "none"}, expected ${legacy ? "400" : expected}): ${problem}`,
        );
    });
    const after = await snapshot(db);
    if (before !== after)
      failures.push("the database changed during the probes (a refused or invalid request wrote something)");
    return { cases, refused, failures };
  }
}

/** One line per kind of failure (route, spelling, method, expectation, problem), with how many probes and one example. */
export function summarise(failures: string[]): string[] {
  const kinds = new Map<string, { count: number; example: string }>();
  for (const f of failures) {
    const key = f.replace(/^\S+ /, "").replace(/ \/\S*/, " ");
    const kind = kinds.get(key) ?? { count: 0, example: f };
    kind.count++;
    kinds.set(key, kind);
  }
  return [...kinds.values()].slice(0, 60).map((k) => `${k.count}× ${k.example}`);
}
