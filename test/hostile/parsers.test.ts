import { Readable } from "node:stream";
import { beforeAll, describe, expect, it } from "vitest";
import { readXlsxRows, UnreadableFileError } from "xlsx-reader";
import { z } from "zod";
import { SHEET_CLOSE, SHEET_OPEN, SST_OPEN, xlsxBomb } from "#test/zip-bombs";
import type { ApiCaller } from "~/api/auth.server";
import { GROUP_PATCH_ATTRIBUTES, USER_PATCH_ATTRIBUTES } from "~/api/scim/patch-paths";
import { PATCH_SCHEMA } from "~/api/scim/protocol";
import { applyPatch, parseListQuery, patchOperations } from "~/api/scim/requests.server";
import { OPERATIONS } from "~/api/v1/all-operations.server";
import { decodeCursor } from "~/api/v1/cursor";
import { parseSourceToken } from "~/features/forecast/consolidated/query";
import { readDecisionForm } from "~/features/forecast/cycle/bulk-decision.server";
import { checkSave } from "~/features/forecast/forecast-save";
import { type ParsedProfileForm, parseProfileForm, weightField } from "~/features/forecast/profiles/profile-form";
import { MONTH_NAMES } from "~/features/forecast/profiles/texts";
import { scenarioCalendar } from "~/features/forecast/release-points";
import { parseVersionListQuery } from "~/features/forecast/versions/versions.server";
import { viewScreenOf } from "~/features/saved-views/screens";
import { type AddressCheck, checkViewAddress } from "~/features/saved-views/view-address";
import { parseScenario } from "~/models/forecast.fields";
import { readEditedCells } from "~/platform/audit/edited-cells";
import { cellPartsOf } from "~/platform/comments/threads.server";
import { closestTemplate, templatesFor } from "~/platform/import/catalog.server";
import { type CsvRecord, CsvRecordParser, CsvSyntaxError } from "~/platform/import/csv";
import { readCsvBatches } from "~/platform/import/readers.server";
import { detectTemplate, TEMPLATES } from "~/platform/import/registry";
import { checkRow } from "~/platform/import/template";
import { ROUND_TRIPS, roundTripById } from "~/round-trips.server";
import { verifyDownloadToken } from "~/services/storage/signed-link.server";
import { verifyUploadTicket } from "~/services/storage/upload-ticket.server";
import { type LinkedCell, linkedCell } from "~/shared/cell-link";
import { currentClientAddress, runWithClientAddress } from "~/shared/client-address.server";
import { scopeRecord } from "~/shared/excel/dataset";
import { portalHeaderOf } from "~/shared/excel/round-trip.server";
import { type CellValue, cellText, normalizeCnpj, parseDate, parseYearMonthDay } from "~/shared/excel/values";
import { loggablePath } from "~/shared/logger.server";
import { parseIsoDate, parseMonthKey, parseMonthText } from "~/shared/months";
import { MONEY_RULE, type NumberRule, parsePtBrNumber, readNumber, readNumberText } from "~/shared/numbers";
import { parsePaging } from "~/shared/pagination";
import { readLimitedJson } from "~/shared/request-body.server";
import { isSameOriginRequest, originOf, tokenApiOf } from "~/shared/same-origin";
import { wholeEncoding } from "../../server/compression-settings";
import {
  isValidHost,
  remixSearchParams,
  requestOrigin,
  routedPathname,
  screenRequestTarget,
} from "../../server/request-guards";
import { requestLog } from "../../server/request-log";
import {
  fieldVariants,
  HOSTILE_BYTES,
  HOSTILE_HEADERS,
  HOSTILE_JSON,
  HOSTILE_JSON_NUMBERS,
  HOSTILE_NUMBER_TEXTS,
  HOSTILE_PATHS,
  HOSTILE_QUERIES,
  HOSTILE_SHAPES,
  HOSTILE_SHEETS,
  HOSTILE_STRINGS,
  type HostileItem,
  type JsonItem,
  madeItem,
  POLLUTION_MARK,
  PROTOTYPE_KEYS,
  PROTOTYPE_SHAPES,
  PT_BR_CSV,
  prototypeKeyVariants,
  queryVariants,
  REPEAT,
  type SheetParts,
  sheetOfText,
  xmlText,
} from "./corpus";

/**
 * Every parser of input from outside the portal, run over the shared hostile corpus (./corpus.ts): SCIM and API
 * bodies and query strings, file contents (CSV, XLSX, cells), headers, paths and tokens. For each parser and each
 * item of the groups it takes, one test asserts what a caller can rely on:
 * - it returns, or throws only its own refusal (named per parser): no TypeError, RangeError, stack overflow or
 *   prototype-access error escapes, and none hides as the cause of a refusal;
 * - the built-in prototypes keep their properties (names and values) and `({}).x` stays undefined;
 * - it completes: the 10⁶ items run within the default test timeout (no time is asserted);
 * - what it returns holds no object whose prototype the input chose, and, where the result can reach a MongoDB query,
 *   a merge or a library, no own `__proto__`/`constructor`/`prototype` key either (per parser, `keepsKeys` says why
 *   not when it keeps them).
 *
 * A new parser of outside input is added to PARSERS in the same commit that adds it.
 */

// ---------------------------------------------------------------------------------------------------------------
// What every case checks

type Group =
  | "strings"
  | "numberTexts"
  | "jsonNumbers"
  | "jsonShapes"
  | "prototypeShapes"
  | "queries"
  | "paths"
  | "headers"
  | "bytes"
  | "sheets";

const GROUPS: Record<Group, readonly HostileItem<unknown>[]> = {
  strings: HOSTILE_STRINGS,
  numberTexts: HOSTILE_NUMBER_TEXTS,
  jsonNumbers: HOSTILE_JSON_NUMBERS,
  jsonShapes: HOSTILE_SHAPES,
  prototypeShapes: PROTOTYPE_SHAPES,
  queries: HOSTILE_QUERIES,
  paths: HOSTILE_PATHS,
  headers: HOSTILE_HEADERS,
  bytes: HOSTILE_BYTES,
  sheets: HOSTILE_SHEETS,
};

/** The group a parser's own items (made from a valid sample of its input) are listed under. */
type Source = Group | "own";

type Parser = {
  name: string;
  /** The corpus groups that are inputs of this parser. */
  accepts: readonly Group[];
  /** Items made for this parser: prototype keys at every depth of a valid input, its fields missing or hostile. */
  own?: () => HostileItem<unknown>[];
  /**
   * Runs the parser on one item's value (`from`: its group, so a parser can put a text where its input carries one;
   * `item`: the item, whose JSON text a reader of text takes).
   */
  run(input: unknown, from: Source, item: HostileItem<unknown>): unknown;
  /** The errors that are this parser's own refusals; any other error escaping is a defect. None when absent. */
  refuses?: (error: unknown) => boolean;
  /** What a caller relies on in a result (throws an assertion error when it does not hold). */
  check?: (result: unknown, input: unknown, item: HostileItem<unknown>) => void;
  /** Why the result may keep prototype keys as own keys (a JSON value handed on to a schema that drops them). */
  keepsKeys?: string;
};

/** The built-in prototypes a polluting parser would change, with their own properties as they are now. */
const WATCHED: ReadonlyArray<[string, object]> = [
  ["Object.prototype", Object.prototype],
  ["Array.prototype", Array.prototype],
  ["Function.prototype", Function.prototype],
  ["String.prototype", String.prototype],
  ["Number.prototype", Number.prototype],
  ["Boolean.prototype", Boolean.prototype],
  ["RegExp.prototype", RegExp.prototype],
  ["Promise.prototype", Promise.prototype],
  ["Error.prototype", Error.prototype],
];

type PrototypeState = Array<[string, Array<[PropertyKey, unknown, unknown, unknown]>]>;

function prototypeState(): PrototypeState {
  return WATCHED.map(([name, proto]) => [
    name,
    Reflect.ownKeys(proto).map((key) => {
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      return [key, d.value, d.get, d.set] as [PropertyKey, unknown, unknown, unknown];
    }),
  ]);
}

/** The differences between two states of the watched prototypes (plain checks: this runs after every case). */
function prototypeChanges(before: PrototypeState, now: PrototypeState): string[] {
  const changes: string[] = [];
  for (let i = 0; i < WATCHED.length; i++) {
    const [name, was] = before[i];
    const is = now[i][1];
    if (is.length !== was.length) changes.push(`${name} has ${is.length} own keys, had ${was.length}`);
    is.forEach((p, j) => {
      if (!p.every((part, k) => Object.is(part, was[j]?.[k]))) changes.push(`${name}.${String(p[0])} changed`);
    });
  }
  return changes;
}

function expectPrototypesAsBefore(before: PrototypeState) {
  expect(prototypeChanges(before, prototypeState())).toEqual([]);
  const probe = {} as Record<string, unknown>;
  expect([probe.x, probe[POLLUTION_MARK], ([] as unknown as Record<string, unknown>).x]).toEqual([
    undefined,
    undefined,
    undefined,
  ]);
}

const UNCONTROLLED = [TypeError, RangeError, ReferenceError, EvalError, URIError];

/** Whether `error`, or any error in its chain of causes, is one no parser means to throw (or a prototype access). */
function isUncontrolled(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (UNCONTROLLED.some((kind) => e instanceof kind)) return true;
    if ((e as { code?: unknown }).code === "ERR_PROTO_ACCESS") return true;
    if (e instanceof Error && /Maximum call stack|Invalid (string|array) length/.test(e.message)) return true;
  }
  return false;
}

const refusedAs =
  (...kinds: Array<abstract new (...args: never[]) => Error>) =>
  (error: unknown) =>
    kinds.some((kind) => error instanceof kind) && !isUncontrolled(error);

/** Objects the walk does not enter: the platform's own classes, whose prototype no input chooses. */
const OPAQUE = [Response, Request, URLSearchParams, URL, Date, Map, Set, Buffer, Uint8Array, RegExp, Promise];

/**
 * Walks what a parser returned (without recursion: some results nest 10⁴ deep) and names the first object whose
 * prototype the input chose (a plain object, not Object.prototype, Array.prototype, null or a class's own prototype)
 * and, unless `keepsKeys`, the first own prototype key; null when there is none. Plain checks, not one `expect` per
 * node: results hold up to 10⁶ rows.
 */
function uncleanPart(result: unknown, keepsKeys: boolean): string | null {
  const stack: unknown[] = [result];
  // No parser returns a cycle; the cap ends the walk if one ever did.
  for (let visits = 0; stack.length > 0 && visits < 5_000_000; visits++) {
    const value = stack.pop();
    if (typeof value !== "object" || value === null) continue;
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) {
      if (OPAQUE.some((kind) => value instanceof kind)) continue;
      // A class's own prototype has its constructor; a prototype the input chose is a plain object.
      if (!Object.hasOwn(proto, "constructor"))
        return `an object whose prototype is ${JSON.stringify(proto)?.slice(0, 80)}`;
    }
    if (Array.isArray(value)) {
      for (const entry of value) if (typeof entry === "object" && entry !== null) stack.push(entry);
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!keepsKeys && (PROTOTYPE_KEYS as readonly string[]).includes(key)) return `an own key ${key}`;
      stack.push((value as Record<string, unknown>)[key]);
    }
  }
  return null;
}

/** Runs one case: the parser on the item, then every check. */
async function expectControlled(parser: Parser, item: HostileItem<unknown>, from: Source, before: PrototypeState) {
  const input = item.value;
  let outcome: { result: unknown } | { error: unknown };
  try {
    outcome = { result: await parser.run(input, from, item) };
  } catch (error) {
    outcome = { error };
  }
  expectPrototypesAsBefore(before);
  if ("error" in outcome) {
    const { error } = outcome;
    const refused = parser.refuses?.(error) ?? false;
    if (!refused) throw new Error(`${parser.name} let an error escape: ${String(error)}`, { cause: error });
    return;
  }
  expect(uncleanPart(outcome.result, parser.keepsKeys !== undefined), "what the parser returned").toBeNull();
  parser.check?.(outcome.result, input, item);
}

// ---------------------------------------------------------------------------------------------------------------
// Adapters: a corpus item as each kind of input

const PORTAL = "http://portal.example";

/** A text where a parser of texts takes it: as it is, bytes read as UTF-8, any other value as JSON. */
function textOf(input: unknown): string {
  if (typeof input === "string") return input;
  if (Buffer.isBuffer(input)) return input.toString("utf8");
  return JSON.stringify(input) ?? "";
}

/** The text of an item: a JSON item's own text (NaN stays "NaN", 1e309 stays "1e309"), else textOf its value. */
const textFor = (input: unknown, item: HostileItem<unknown>) =>
  typeof (item as Partial<JsonItem>).text === "string" ? (item as JsonItem).text : textOf(input);

/** A URL with a query item (a parser's own query variants included) as its query. */
const urlWithQuery = (query: unknown) => new URL(`${PORTAL}/x?${String(query)}`);

/** A path for a reader of paths: a path item as it is, a text as a segment. */
const pathOf = (input: unknown, from: Source) => (from === "paths" ? String(input) : `/${textOf(input)}`);

/** A CSV file holding a text in its first data row (the text's own line breaks and quotes left as they are). */
const csvHolding = (text: string) => Buffer.from(`nome;valor\r\n${text};1.234,50\r\n`);

/** Bytes in chunks of `size` (a prime, so that CRLF pairs, quotes and UTF-8 sequences are cut everywhere). */
function* chunksOf(bytes: Buffer, size = 1021): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function xlsxOf(parts: SheetParts): Promise<Buffer> {
  const shared = (parts.sharedStrings ?? []).map((s) => `<si><t>${xmlText(s)}</t></si>`).join("");
  return xlsxBomb({
    sheetRows: { name: "", bytes: Buffer.from(`${SHEET_OPEN}${parts.sheetRows}${SHEET_CLOSE}`) },
    sharedStrings: { name: "", bytes: Buffer.from(`${SST_OPEN}${shared}</sst>`) },
  });
}

/** A cell value from an item: texts as texts, JSON numbers as numbers (what an XLSX number cell holds). */
const cellOf = (input: unknown): CellValue =>
  typeof input === "number" || typeof input === "string" ? input : textOf(input);

// ---------------------------------------------------------------------------------------------------------------
// Result checks shared by several parsers

/**
 * The first row whose line number is not a positive integer (in order, when `ordered`) or whose cells are not
 * `cellOk`.
 */
function badRow(
  rows: Array<{ line: number; cells: unknown[] }>,
  cellOk: (cell: unknown) => boolean,
  ordered: boolean,
): string | null {
  let last = 0;
  for (const row of rows) {
    if (!Number.isSafeInteger(row.line) || row.line < 1 || (ordered && row.line < last))
      return `line ${row.line} after ${last}`;
    last = row.line;
    if (!Array.isArray(row.cells)) return `line ${row.line}: cells are not an array`;
    const bad = row.cells.findIndex((c) => !cellOk(c));
    if (bad >= 0) return `line ${row.line}: cell ${bad + 1} is ${String(row.cells[bad])}`;
  }
  return null;
}

const isString = (cell: unknown) => typeof cell === "string";
/**
 * What an XLSX cell holds: a text, a number, a boolean, a date, or nothing. A number cell's text is read as exceljs read
 * it, so `<v>NaN</v>` is NaN and a date from 1e308 an invalid date: the cell rules refuse those ("upload cells" below
 * checks that no such value is stored).
 */
const isCellValue = (cell: unknown) =>
  cell === null || cell === undefined || cell instanceof Date || ["string", "number", "boolean"].includes(typeof cell);

const expectFiniteOrNothing = (value: unknown) => {
  if (typeof value === "number") expect(Number.isFinite(value), `stored ${value}`).toBe(true);
  if (value instanceof Date) expect(Number.isNaN(value.getTime())).toBe(false);
};

// ---------------------------------------------------------------------------------------------------------------
// Samples of valid input, for the generators

const PATCH_SAMPLE = {
  schemas: [PATCH_SCHEMA],
  Operations: [
    { op: "replace", path: "name.formatted", value: "Ana" },
    { op: "Add", value: { displayName: "Ana", active: true, emails: [{ value: "ana@example.com", primary: true }] } },
  ],
};

const GROUP_PATCH_SAMPLE = {
  schemas: [PATCH_SCHEMA],
  Operations: [
    { op: "add", path: "members", value: [{ value: "0123456789abcdef01234567", display: "ana@example.com" }] },
    { op: "remove", path: 'members[value eq "0123456789abcdef01234567"]' },
  ],
};

/** A PATCH body with one operation whose path, or whose value object's one key, is `text`. */
function patchTouching(text: string, where: "path" | "value key"): unknown {
  const key = JSON.stringify(text);
  return JSON.parse(
    where === "path"
      ? `{"schemas":["${PATCH_SCHEMA}"],"Operations":[{"op":"replace","path":${key},"value":"x"}]}`
      : `{"schemas":["${PATCH_SCHEMA}"],"Operations":[{"op":"add","value":{${key}:{"__proto__":{"x":1}}}}]}`,
  );
}

/** Paths and value keys a directory could send: the hostile texts, and paths built around the allowed names. */
function patchPathItems(): HostileItem<unknown>[] {
  const texts = [
    ...HOSTILE_STRINGS.filter((s) => s.name.startsWith("10⁶") === false).map((s) => [s.name, s.value] as const),
    ["name.__proto__", "name.__proto__"],
    ["name.constructor", "name.constructor"],
    ["emails.__proto__", 'emails[type eq "work"].__proto__'],
    ["filter on __proto__", 'emails[__proto__ eq "x"].value'],
    ["filter on constructor", 'members[constructor eq "x"]'],
    ["schema-prefixed __proto__", "urn:ietf:params:scim:schemas:core:2.0:User:__proto__"],
    ["schema-prefixed name", "urn:ietf:params:scim:schemas:core:2.0:User:name.givenName"],
    ["other schema", "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager"],
    ["nested filter", 'emails[type eq "work" and value co "@"].value'],
    ["filter of 300 brackets", `emails[${"(".repeat(150)}type eq "w"${")".repeat(150)}].value`],
    ["case variant", "DISPLAYNAME"],
    ["Kelvin in the name", "\u212aisplayName"],
  ] as const;
  return texts.flatMap(([name, text]) => [
    madeItem(`path ${name}`, () => patchTouching(text, "path")),
    madeItem(`value key ${name}`, () => patchTouching(text, "value key")),
  ]);
}

const USER_RESOURCE = {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:User"],
  id: "0123456789abcdef01234567",
  userName: "ana@example.com",
  displayName: "Ana",
  name: { formatted: "Ana" },
  active: true,
  emails: [{ value: "ana@example.com", primary: true, type: "work" }],
  groups: [],
  meta: { resourceType: "User" },
};

const GROUP_RESOURCE = {
  schemas: ["urn:ietf:params:scim:schemas:core:2.0:Group"],
  id: "user-gold",
  displayName: "USER GOLD",
  members: [{ value: "0123456789abcdef01234567", display: "ana@example.com" }],
};

/** SCIM filters (the `filter` parameter): prototype attributes, operators the portal does not take, deep nesting. */
const SCIM_FILTERS = [
  'userName eq "ana@example.com"',
  'userName eq "__proto__"',
  '__proto__ eq "x"',
  'constructor eq "x"',
  'constructor.prototype eq "x"',
  'emails[type eq "work"].value eq "a@b.c"',
  'emails[__proto__ eq "x"].value eq "a"',
  "userName pr",
  "userName eq 1",
  "userName eq null",
  'userName co "a"',
  'not (userName eq "a")',
  'userName eq "a" or userName eq "b"',
  `${"(".repeat(490)}userName eq "a"${")".repeat(490)}`,
  `${"not (".repeat(150)}userName eq "a"${")".repeat(150)}`,
  'userName eq "\u0000"',
  'userName eq "\uD800"',
  'USERNAME EQ "A"',
  'displayName eq "USER GOLD"',
  'displayName eq "__proto__"',
  "x".repeat(1001),
];

const scimFilterItems = () =>
  SCIM_FILTERS.map((filter, i) =>
    madeItem(`filter ${i + 1}: ${filter.slice(0, 30)}`, () => new URLSearchParams({ filter }).toString()),
  );

/** A save of the forecast review as the grid sends it, in an open RF on a day of its edit month. */
const SAVE_CALENDAR = scenarioCalendar(parseScenario("RF1 2027")!);
const SAVE_TODAY = { year: 2026, month: 11, day: 10 };
const SAVE_SAMPLE = {
  intent: "save",
  changes: [{ account: "4101", month: "2027-03", old: 0, value: 1234.5, at: 0 }],
};

const TOKEN_SECRET = "hostile-corpus-secret-0123456789abcdef";
const b64 = (text: string) => Buffer.from(text).toString("base64url");

/** Tokens shaped as `payload.signature`, each payload a hostile JSON text, the signature wrong. */
const tokenItems = () =>
  HOSTILE_JSON.filter((json) => !json.name.startsWith("10⁶") && !json.name.includes("10⁴")).map((json) =>
    madeItem(`signed-looking ${json.name}`, () => `${b64(json.text)}.${b64("not the signature")}`),
  );

/** Cursors as the API hands them out (base64url of JSON), each holding a hostile JSON value. */
const cursorItems = () => HOSTILE_JSON.map((json) => madeItem(`cursor of ${json.name}`, () => b64(json.text)));

/** The cursors' schemas, as the list operations declare them (a sort key and an id). */
const HEX_ID = z.string().regex(/^[0-9a-f]{24}$/);
const CURSOR_SCHEMAS = [
  z.tuple([z.number().int().min(0).max(8.64e15), HEX_ID]),
  z.tuple([z.string().max(400)]),
  z.tuple([z.number().int(), z.string().max(400), HEX_ID]),
  z.tuple([z.number().int().min(0)]),
];

const COUNT_RULE: NumberRule = { decimals: 0, min: 0, max: 1e9, excessDecimals: "refuse" };

const UPLOADER: ApiCaller = {
  user: { email: "ana@example.com", name: "Ana", type: "SYSTEM ADMIN", sessionId: "token:hostile" },
  token: {} as ApiCaller["token"],
};
const KNOWN_UPLOAD_TYPES = new Set([
  "text/csv",
  "text/plain",
  "application/csv",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
]);

/** A fake Express request for the host's readers: its headers, path and the trust setting of a proxy in front. */
function expressRequest(headers: Record<string, string>, trusted = false) {
  return {
    headers: { ...headers },
    get: (name: string) => headers[name.toLowerCase()],
    path: "/x",
    method: "GET",
    protocol: "https",
    socket: { remoteAddress: "10.0.0.1" },
    app: { get: (name: string) => (name === "trust proxy fn" ? () => trusted : undefined) },
  };
}

const TRUSTED_ORIGIN = "https://portal.example";

// ---------------------------------------------------------------------------------------------------------------
// The list: every parser of input from outside the portal

const JSON_GROUPS: readonly Group[] = ["jsonShapes", "prototypeShapes", "jsonNumbers"];

/**
 * The API's query and path parameters: every operation's own zod schemas, over what the router hands them (the query
 * as `Object.fromEntries` of the URL's search params, each path parameter as the router split it). One entry for all
 * the operations: the router reads the query once per request whichever operation it names.
 */
function apiParameterParsers(): Parser[] {
  const withQuery = OPERATIONS.filter((o) => o.query !== undefined);
  const withParams = OPERATIONS.filter((o) => o.params !== undefined);
  const queryKeys = [...new Set(withQuery.flatMap((o) => Object.keys(o.query!.shape)))];
  return [
    {
      name: `API v1 query schemas (${withQuery.map((o) => o.id).join(", ")})`,
      accepts: ["queries"],
      own: () => queryVariants(queryKeys),
      run: (input) => {
        const query = Object.fromEntries(urlWithQuery(input).searchParams);
        return withQuery.map((o) => ({ keys: Object.keys(o.query!.shape), parsed: o.query!.safeParse(query) }));
      },
      check: (result) => {
        for (const { keys, parsed } of result as Array<{
          keys: string[];
          parsed: z.SafeParseReturnType<unknown, object>;
        }>)
          if (parsed.success) for (const key of Object.keys(parsed.data)) expect(keys).toContain(key);
      },
    },
    {
      name: `API v1 path parameters (${withParams.map((o) => o.path).join(", ")})`,
      accepts: ["strings", "paths"],
      run: (input) =>
        withParams.map((o) =>
          o.params!.safeParse(Object.fromEntries(Object.keys(o.params!.shape).map((k) => [k, textOf(input)]))),
        ),
    },
  ];
}

const PARSERS: Parser[] = [
  // SCIM
  ...(
    [
      ["Users", { userName: "userName", "emails.value": "userName", 'emails[type eq "work"].value': "userName" }],
      ["Groups", { displayName: "displayName" }],
    ] as const
  ).map(
    ([resource, attributes]): Parser => ({
      name: `SCIM parseListQuery (${resource})`,
      accepts: ["queries"],
      own: () => [...queryVariants(["startIndex", "count", "filter", "excludedAttributes"]), ...scimFilterItems()],
      run: (input) => parseListQuery(urlWithQuery(input), attributes),
      check: (result) => {
        if ("error" in (result as object)) {
          expect((result as { error: Response }).error.status).toBe(400);
          return;
        }
        const query = result as { startIndex: number; count: number; equals: Record<string, string> };
        expect(Number.isSafeInteger(query.startIndex) && query.startIndex >= 1).toBe(true);
        expect(Number.isSafeInteger(query.count) && query.count >= 0 && query.count <= 200).toBe(true);
        for (const [key, value] of Object.entries(query.equals)) {
          expect(Object.values(attributes)).toContain(key);
          expect(typeof value).toBe("string");
        }
      },
    }),
  ),
  ...(
    [
      ["User", USER_PATCH_ATTRIBUTES, PATCH_SAMPLE, USER_RESOURCE],
      ["Group", GROUP_PATCH_ATTRIBUTES, GROUP_PATCH_SAMPLE, GROUP_RESOURCE],
    ] as const
  ).map(
    ([resource, attributes, sample, current]): Parser => ({
      // The operations as patchOperations rebuilds them, and the resource once scim-patch has applied them: what
      // reaches the library is only what the allow-list built.
      name: `SCIM PATCH (${resource}): patchOperations, then scim-patch`,
      accepts: JSON_GROUPS,
      own: () => [...prototypeKeyVariants(sample), ...fieldVariants(sample), ...patchPathItems()],
      run: (input) => {
        const operations = patchOperations(input, attributes);
        return { operations, applied: "error" in operations ? null : applyPatch(current, operations.list) };
      },
      check: (result) => {
        const { operations, applied } = result as {
          operations: { list: Array<{ path?: string }> } | { error: Response };
          applied: { patched: object } | { error: Response } | null;
        };
        if ("error" in operations) {
          expect(operations.error.status).toBe(400);
          return;
        }
        for (const operation of operations.list)
          if (operation.path !== undefined) expect(operation.path).not.toMatch(/__proto__|constructor|prototype/i);
        if (applied && "error" in applied) expect(applied.error.status).toBe(400);
      },
    }),
  ),

  // API v1
  ...apiParameterParsers(),
  {
    name: "API v1 cursor (decodeCursor, with each list's cursor schema)",
    accepts: ["strings"],
    own: cursorItems,
    run: (input, _from, item) => {
      const text = textFor(input, item);
      return CURSOR_SCHEMAS.map((schema) => decodeCursor(text, schema));
    },
    check: (result) => {
      for (const decoded of result as unknown[]) if (decoded !== null) expect(Array.isArray(decoded)).toBe(true);
    },
  },
  {
    name: "API v1 createUpload: Content-Type",
    accepts: ["headers", "strings"],
    run: (input) => {
      const upload = OPERATIONS.find((o) => o.id === "createUpload")!;
      const dataset = templatesFor(UPLOADER.user.type)[0]?.id;
      expect(dataset, "a dataset the uploader may send").toBeDefined();
      const value = textOf(input);
      const request = {
        url: `${PORTAL}/api/v1/uploads`,
        body: null,
        headers: { get: (name: string) => (name.toLowerCase() === "content-type" ? value : null) },
      } as unknown as Request;
      return upload.run({ request, caller: UPLOADER, params: {}, query: { dataset } });
    },
    check: (result, input) => {
      const type = textOf(input).split(";")[0].trim().toLowerCase();
      // Without a body: a known type is refused for the missing body (400), any other one as unsupported (415).
      expect((result as Response).status).toBe(KNOWN_UPLOAD_TYPES.has(type) ? 400 : 415);
    },
  },
  {
    name: "JSON body reader (readLimitedJson: forecast saves, S3 uploads, file registration)",
    accepts: [...JSON_GROUPS, "strings", "bytes"],
    run: (input, _from, item) => {
      const body = Buffer.isBuffer(input) ? new Uint8Array(input) : textFor(input, item);
      return readLimitedJson(new Request(`${PORTAL}/x`, { method: "POST", body }), 16 * 1024 * 1024);
    },
    keepsKeys: "it hands the parsed JSON value to its caller's zod schema, which keeps no __proto__ and only its keys",
    check: (result) => {
      const read = result as { ok: boolean; status?: number };
      if (!read.ok) expect([400, 413]).toContain(read.status);
    },
  },
  {
    name: "JSON body reader over its limit (readLimitedJson, 1 KB)",
    accepts: ["jsonShapes", "strings"],
    run: (input, _from, item) =>
      readLimitedJson(new Request(`${PORTAL}/x`, { method: "POST", body: textFor(input, item) }), 1024),
    keepsKeys: "it hands the parsed JSON value to its caller's zod schema, which keeps no __proto__ and only its keys",
    check: (result, input, item) => {
      const read = result as { ok: boolean; status?: number };
      if (Buffer.byteLength(textFor(input, item)) > 1024) expect(read).toEqual({ ok: false, status: 413 });
    },
  },
  {
    name: "forecast review save body (checkSave)",
    accepts: JSON_GROUPS,
    own: () => [...prototypeKeyVariants(SAVE_SAMPLE), ...fieldVariants(SAVE_SAMPLE)],
    run: (input) => checkSave(input, SAVE_CALENDAR, SAVE_TODAY),
    check: (result) => {
      const save = result as
        | { ok: true; cells: Array<{ value: number; month: number }> }
        | { ok: false; status: number };
      if (!save.ok) {
        expect([400, 409]).toContain(save.status);
        return;
      }
      for (const cell of save.cells) {
        expect(Number.isFinite(cell.value) && Math.abs(cell.value) < 1e13 && !Object.is(cell.value, -0)).toBe(true);
        expect(Number.isSafeInteger(cell.month)).toBe(true);
      }
    },
  },

  // Files
  {
    name: "CSV reader (readCsvBatches: encoding, delimiter, records)",
    accepts: ["bytes", "strings", "numberTexts"],
    run: async (input) => {
      const bytes = Buffer.isBuffer(input) ? input : csvHolding(textOf(input));
      const rows: Array<{ line: number; cells: unknown[] }> = [];
      for await (const batch of readCsvBatches(Readable.from(chunksOf(bytes)))) rows.push(...batch);
      return rows;
    },
    refuses: refusedAs(UnreadableFileError),
    check: (result, _input, item) => {
      expect(badRow(result as CsvRecord[], isString, true)).toBeNull();
      // The pt-BR file reads the same in each encoding Excel writes it in.
      if (item.name.startsWith("pt-BR CSV"))
        expect((result as CsvRecord[]).map((r) => r.cells)).toEqual(
          PT_BR_CSV.trim()
            .split("\r\n")
            .map((l) => l.split(";")),
        );
    },
  },
  {
    name: "CSV record parser (delimiters , ; and tab, text in chunks)",
    accepts: ["strings", "numberTexts", "bytes"],
    run: (input) => {
      const text = textOf(input);
      const size = text.length > 65_536 ? 65_521 : 7;
      // Each delimiter on its own: a refusal under one does not keep the others from running.
      return ([",", ";", "\t"] as const).map((delimiter) => {
        const parser = new CsvRecordParser(delimiter);
        const out: CsvRecord[] = [];
        try {
          for (let i = 0; i < text.length; i += size) parser.push(text.slice(i, i + size), out);
          parser.end(out);
        } catch (error) {
          if (refusedAs(CsvSyntaxError)(error)) return "refused";
          throw error;
        }
        return out;
      });
    },
    check: (result) => {
      for (const records of result as Array<CsvRecord[] | "refused">)
        if (records !== "refused") expect(badRow(records, isString, true)).toBeNull();
    },
  },
  {
    name: "XLSX reader (readXlsxRows)",
    accepts: ["bytes", "sheets", "strings", "numberTexts"],
    run: async (input, from) => {
      const bytes = Buffer.isBuffer(input)
        ? input
        : await xlsxOf(from === "sheets" ? (input as SheetParts) : sheetOfText(textOf(input)));
      const rows: Array<{ line: number; cells: CellValue[] }> = [];
      for await (const row of readXlsxRows(Readable.from([bytes]))) rows.push(row);
      return rows;
    },
    refuses: refusedAs(UnreadableFileError),
    // A row's line is its `r` as written: a file may repeat it or go back (Excel never does), so lines need not rise.
    check: (result) =>
      expect(badRow(result as Array<{ line: number; cells: CellValue[] }>, isCellValue, false)).toBeNull(),
  },
  {
    name: "upload header row (detectTemplate, closestTemplate)",
    accepts: ["strings", "numberTexts"],
    run: (input) => {
      const text = textOf(input);
      const header = [
        text,
        text.toUpperCase(),
        "__proto__",
        "constructor",
        ...(TEMPLATES[0]?.columns ?? []).map((c) => c.name),
      ];
      return { detected: detectTemplate(header)?.template.id ?? null, closest: closestTemplate([text]) };
    },
    check: (result) => {
      const { detected } = result as { detected: string | null };
      if (detected !== null) expect(TEMPLATES.map((t) => t.id)).toContain(detected);
    },
  },
  {
    name: "upload cells (checkRow of every template)",
    accepts: ["strings", "numberTexts", "jsonNumbers"],
    run: (input) => {
      const value = cellOf(input);
      const text = cellText(value);
      return TEMPLATES.map((template) => {
        const values = template.columns.map(() => value);
        const stored: unknown[] = [];
        const errors = checkRow(
          template,
          values,
          values.map(() => text),
          stored,
        );
        return { errors, stored };
      });
    },
    check: (result) => {
      for (const { errors, stored } of result as Array<{ errors: string[] | null; stored: unknown[] }>) {
        if (errors) for (const message of errors) expect(typeof message).toBe("string");
        else stored.forEach(expectFiniteOrNothing);
      }
    },
  },
  {
    name: "cell dates and CNPJ (parseDate, parseYearMonthDay, normalizeCnpj)",
    accepts: ["strings", "numberTexts", "jsonNumbers"],
    run: (input) => {
      const value = cellOf(input);
      return { date: parseDate(value), ymd: parseYearMonthDay(value), cnpj: normalizeCnpj(value) };
    },
    check: (result) => {
      const { date, ymd, cnpj } = result as { date: Date | null; ymd: string | null; cnpj: string | null };
      if (date) expect(date.getUTCFullYear() >= 1900 && date.getUTCFullYear() <= 2999).toBe(true);
      if (ymd !== null) expect(ymd).toMatch(/^\d{8}$/);
      if (cnpj !== null) expect(cnpj).toMatch(/^\d{14}$/);
    },
  },
  {
    name: "pt-BR numbers (readNumberText, parsePtBrNumber, readNumber for money and counts)",
    accepts: ["strings", "numberTexts", "jsonNumbers"],
    run: (input) => {
      const value = typeof input === "number" ? input : textOf(input);
      const text = String(value);
      return {
        text: readNumberText(text),
        grid: parsePtBrNumber(text),
        money: readNumber(value, MONEY_RULE),
        count: readNumber(value, COUNT_RULE),
      };
    },
    check: (result) => {
      const readings = result as Record<string, { ok: boolean; value?: number } | null>;
      for (const reading of Object.values(readings))
        if (reading?.ok) expect(Number.isFinite(reading.value) && !Object.is(reading.value, -0)).toBe(true);
      const { money, count } = readings as Record<string, { ok: boolean; value: number }>;
      if (money.ok) expect(Math.abs(money.value)).toBeLessThanOrEqual(1e13);
      if (count.ok) expect(Number.isSafeInteger(count.value) && count.value >= 0).toBe(true);
    },
  },
  {
    name: "months and days (parseMonthKey, parseMonthText, parseIsoDate)",
    accepts: ["strings", "numberTexts"],
    run: (input) => {
      const text = textOf(input);
      return { key: parseMonthKey(text), typed: parseMonthText(text), day: parseIsoDate(text) };
    },
    check: (result) => {
      const { key, typed, day } = result as { key: number | null; typed: number | null; day: object | null };
      for (const month of [key, typed]) if (month !== null) expect(Number.isSafeInteger(month)).toBe(true);
      if (day) expect(Object.keys(day)).toEqual(["year", "month", "day"]);
    },
  },
  {
    name: "edited export header (portalHeaderOf, scopeRecord, roundTripById)",
    accepts: ["strings", "queries"],
    run: (input, from) => {
      const header = from === "queries" ? `_portal:planning?${input}` : `_portal:${textOf(input)}`;
      const read = portalHeaderOf(header);
      return read && { dataset: roundTripById(read.dataset)?.id ?? null, scope: scopeRecord(read.scope) };
    },
    keepsKeys: "the scope record goes to the dataset's zod scope schema (z.object), which keeps only its own fields",
    check: (result) => {
      const read = result as { dataset: string | null; scope: Record<string, unknown> } | null;
      expect(read).not.toBeNull();
      if (read?.dataset) expect(ROUND_TRIPS.map((d) => d.id)).toContain(read.dataset);
      expect(Object.getPrototypeOf(read?.scope)).toBe(Object.prototype);
    },
  },
  {
    name: "comment cell key (cellPartsOf)",
    accepts: ["strings", ...JSON_GROUPS],
    run: (input, _from, item) => cellPartsOf(textFor(input, item), 2),
    check: (result) => {
      if (result !== null) expect((result as unknown[]).every((p) => typeof p === "string")).toBe(true);
    },
  },
  {
    name: "status board decision form (readDecisionForm: each box, the RF, the comment)",
    accepts: ["strings"],
    run: (input) => {
      const text = textOf(input);
      const form = (field: string) => {
        const data = new FormData();
        const fields: Record<string, string> = { intent: "approve", rf: "RF2 2027", comment: "", cc: "1|CC1" };
        fields[field] = text;
        for (const [key, value] of Object.entries(fields)) data.append(key, value);
        return data;
      };
      return ["cc", "rf", "comment", "intent"].map((field) => readDecisionForm(form(field)));
    },
    check: (result) => {
      for (const answer of result as ReturnType<typeof readDecisionForm>[])
        if (answer.ok)
          for (const [cc, read] of answer.form.boxes) expect(cc.length > 0 && !Number.isNaN(read.getTime())).toBe(true);
    },
  },
  {
    name: "forecast path and query tokens (parseScenario, parseSourceToken)",
    accepts: ["strings", "numberTexts"],
    run: (input) => ({ scenario: parseScenario(textOf(input)), source: parseSourceToken(textOf(input)) }),
  },
  {
    name: "saved view address (checkViewAddress: a screen's path and its own parameters)",
    accepts: ["paths", "queries", "strings"],
    own: () => queryVariants(["rf", "cost_center", "cols", "versao", "celula", "nivel", "abrir", "page"]),
    run: (input, from) => {
      const text = textOf(input);
      const grid = "/ij/report_preview_edit_schneider/RF2%202026";
      const paths =
        from === "paths"
          ? [text]
          : from === "strings"
            ? [text, `${grid}/${text}`, `/ij/rh_edit/${text}`]
            : [`/ij/report_create_schneider?${text}`, `${grid}/CC1?${text}`, `/ij/forecast_consolidado?${text}`];
      return paths.map((path) => checkViewAddress(path));
    },
    check: (result) => {
      for (const check of result as AddressCheck[]) {
        if (!check.ok) {
          expect(check.back === null || (check.back.startsWith("/") && !check.back.startsWith("//"))).toBe(true);
          continue;
        }
        // Only a path of a known screen, and of its query only that screen's parameters, bounded.
        const { screen, query } = check.address;
        const known = viewScreenOf(screen);
        expect(known !== null && screen.startsWith("/") && !screen.startsWith("//")).toBe(true);
        expect(query === "" || (query.startsWith("?") && query.length <= 2_000)).toBe(true);
        for (const name of new URLSearchParams(query).keys())
          expect(Object.hasOwn(known?.params ?? {}, name)).toBe(true);
      }
    },
  },
  {
    name: "list paging (parsePaging)",
    accepts: ["queries"],
    own: () => queryVariants(["page", "pageSize"]),
    run: (input) => parsePaging(urlWithQuery(input), [10, 25, 50]),
    check: (result) => {
      const { page, pageSize } = result as { page: number; pageSize: number };
      expect(Number.isSafeInteger(page) && page >= 1 && page <= 1_000_000).toBe(true);
      expect([10, 25, 50]).toContain(pageSize);
    },
  },
  {
    name: "versions' list query (parseVersionListQuery: rf, page, aprovacoes)",
    accepts: ["queries", "strings"],
    own: () => queryVariants(["rf", "page", "aprovacoes"]),
    run: (input) => parseVersionListQuery(new URLSearchParams(textOf(input))),
    check: (result) => {
      const { rf, page, approvalsPage } = result as ReturnType<typeof parseVersionListQuery>;
      for (const n of [page, approvalsPage]) expect(Number.isSafeInteger(n) && n >= 1 && n <= 1_000_000).toBe(true);
      expect(rf === null || (typeof rf === "string" && rf.length <= 20)).toBe(true);
    },
  },
  {
    name: "seasonality profile form (parseProfileForm: the POST of /ij/forecast_perfis_sazonalidade)",
    accepts: ["queries", "strings", "numberTexts"],
    own: () => queryVariants(["intent", "id", "atualizado", "nome", ...MONTH_NAMES.map((_, i) => weightField(i + 1))]),
    run: (input, from) => {
      if (from === "queries" || from === "own") return parseProfileForm(new URLSearchParams(String(input)));
      const text = textOf(input);
      const body = new URLSearchParams({ intent: "salvar", id: "", atualizado: "", nome: text });
      for (let m = 1; m <= 12; m++) body.set(weightField(m), text);
      return parseProfileForm(body);
    },
    check: (result) => {
      const form = result as ParsedProfileForm;
      if (!form.ok) {
        expect(Object.values(form.errors).every((message) => typeof message === "string")).toBe(true);
        return;
      }
      if (form.intent === "excluir") {
        expect(form.id).toMatch(/^[0-9a-f]{24}$/i);
        return;
      }
      expect([...form.name].length).toBeGreaterThan(0);
      expect([...form.name].length).toBeLessThanOrEqual(80);
      expect(form.weights).toHaveLength(12);
      for (const w of form.weights) expect(Number.isFinite(w) && w >= 0 && w <= 1e6 && !Object.is(w, -0)).toBe(true);
      expect(form.weights.some((w) => w > 0)).toBe(true);
    },
  },
  {
    name: "a grid's link to a cell (linkedCell: ?celula=&historico=)",
    accepts: ["queries", "strings"],
    own: () => queryVariants(["celula", "historico"]),
    run: (input, from) =>
      linkedCell(
        from === "strings" ? new URLSearchParams({ celula: textOf(input) }) : urlWithQuery(input).searchParams,
      ),
    check: (result) => {
      const cell = result as LinkedCell | null;
      if (cell) expect(cell.key.length > 0 && cell.key.length <= 300 && /^\d{4}-\d{2}$/.test(cell.month)).toBe(true);
    },
  },
  {
    name: "an audit entry's edited cells (readEditedCells)",
    accepts: [...JSON_GROUPS],
    run: (input) => readEditedCells({ cells: input, moreCells: input }),
    check: (result) => {
      const read = result as ReturnType<typeof readEditedCells>;
      if (read) expect(read.cells.every((c) => typeof c.old === "number" && typeof c.new === "number")).toBe(true);
    },
  },
  {
    name: "signed tokens (verifyUploadTicket, verifyDownloadToken)",
    accepts: ["strings"],
    own: tokenItems,
    run: (input) => ({
      ticket: verifyUploadTicket(textOf(input), TOKEN_SECRET),
      download: verifyDownloadToken(textOf(input), TOKEN_SECRET),
    }),
    check: (result) => {
      // Nothing the corpus holds is signed with the secret: every token is refused.
      expect(result).toEqual({ ticket: null, download: { ok: false, reason: expect.any(String) } });
    },
  },

  // The host: headers and paths
  {
    name: "host header (isValidHost)",
    accepts: ["headers", "strings"],
    run: (input) => isValidHost(textOf(input)),
    check: (result, input) => {
      if (result) expect(() => new URL(`http://${textOf(input)}/`)).not.toThrow();
      if (result) expect(textOf(input)).not.toMatch(/[@/\\\s]/);
    },
  },
  {
    name: "request origin (requestOrigin: Host, X-Forwarded-Host through a trusted proxy)",
    accepts: ["headers", "strings"],
    run: (input) => {
      const value = textOf(input);
      const direct = requestOrigin(expressRequest({ host: value }) as never);
      const forwarded = requestOrigin(
        expressRequest({ host: "portal.example", "x-forwarded-host": value }, true) as never,
      );
      return { direct, forwarded };
    },
    check: (result) => {
      for (const origin of Object.values(result as Record<string, string | null>))
        if (origin !== null) expect(isValidHost(origin.replace(/^https:\/\//, ""))).toBe(true);
    },
  },
  {
    name: "request target (screenRequestTarget)",
    accepts: ["paths", "strings"],
    run: (input, from) => {
      const target = from === "paths" ? String(input) : `http://${textOf(input)}/x`;
      const req = { url: target, headers: {} as Record<string, string> };
      let status = 0;
      const res = { writeHead: (code: number) => (status = code), end: () => undefined };
      const answered = screenRequestTarget(req as never, res as never, () => undefined);
      return { answered, status, url: req.url, host: req.headers.host ?? null, target };
    },
    check: (result) => {
      const { answered, status, url, host, target } = result as Record<string, unknown>;
      if (answered) expect(status).toBe(400);
      else if (!String(target).startsWith("/")) {
        expect(String(url).startsWith("/")).toBe(true);
        expect(isValidHost(String(host))).toBe(true);
      }
    },
  },
  {
    name: "routed path and query (routedPathname, remixSearchParams)",
    accepts: ["paths", "strings"],
    run: (input, from) => {
      const req = { originalUrl: pathOf(input, from), url: pathOf(input, from) };
      return { path: routedPathname(req), search: remixSearchParams(req) };
    },
    check: (result) => {
      const { path, search } = result as { path: string | null; search: URLSearchParams };
      expect(search).toBeInstanceOf(URLSearchParams);
      if (path === null) return;
      expect(path.startsWith("/")).toBe(true);
      // Dot segments are resolved, encoded or not: what the router matches has none left.
      expect(path).not.toMatch(/(^|\/)(\.|%2e){1,2}(\/|$)/i);
    },
  },
  {
    name: "token API of a path (tokenApiOf) and the logged path (loggablePath)",
    accepts: ["paths", "strings"],
    run: (input, from) => ({ api: tokenApiOf(pathOf(input, from)), logged: loggablePath(pathOf(input, from)) }),
    check: (result) => {
      const { api, logged } = result as { api: string | null; logged: string };
      expect([null, "api", "scim"]).toContain(api);
      expect(typeof logged).toBe("string");
    },
  },
  {
    name: "Origin and Referer (isSameOriginRequest)",
    accepts: ["headers", "strings"],
    run: (input) => {
      const value = textOf(input);
      const check = (origin: string | null, referer: string | null) =>
        isSameOriginRequest({ method: "POST", origin, referer, allowed: [TRUSTED_ORIGIN] });
      return { byOrigin: check(value, null), byReferer: check(null, value) };
    },
    check: (result, input) => {
      const value = textOf(input);
      const { byOrigin, byReferer } = result as { byOrigin: boolean; byReferer: boolean };
      expect(byOrigin).toBe(value !== "" && value.toLowerCase() === TRUSTED_ORIGIN);
      expect(byReferer).toBe(value !== "" && originOf(value) === TRUSTED_ORIGIN);
    },
  },
  {
    name: "Accept-Encoding (wholeEncoding)",
    accepts: ["headers", "strings"],
    run: (input) => wholeEncoding(textOf(input)),
    check: (result) => expect([null, "br", "gzip"]).toContain(result),
  },
  {
    name: "X-Request-Id (requestLog)",
    accepts: ["headers", "strings"],
    run: (input) => {
      const value = textOf(input);
      const req = expressRequest({ "x-request-id": value });
      const res = {
        locals: {} as Record<string, unknown>,
        sent: "",
        setHeader: (_: string, v: string) => (res.sent = v),
        on: () => res,
      };
      let nexted = false;
      const logger = { debug: () => undefined, info: () => undefined } as never;
      requestLog(logger)(req as never, res as never, () => (nexted = true));
      return { id: res.locals.requestId, sent: res.sent, nexted };
    },
    check: (result) => {
      const { id, sent, nexted } = result as { id: string; sent: string; nexted: boolean };
      expect(nexted).toBe(true);
      expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
      expect(sent).toBe(id);
    },
  },
  {
    name: "client address (runWithClientAddress)",
    accepts: ["headers", "strings"],
    run: (input) => runWithClientAddress(textOf(input), () => currentClientAddress()),
    check: (result, input) => {
      const value = textOf(input);
      expect(result).toBe(value.length > 0 && value.length <= 64 ? value : null);
    },
  },
];

// ---------------------------------------------------------------------------------------------------------------

/** Each parser's cases: the items of the groups it takes, then its own; names unique within the parser. */
function casesOf(parser: Parser): Array<{ name: string; item: HostileItem<unknown>; from: Source }> {
  const cases = [
    ...parser.accepts.flatMap((group) =>
      GROUPS[group].map((item) => ({ name: `${group}: ${item.name}`, item, from: group as Source })),
    ),
    ...(parser.own?.() ?? []).map((item) => ({ name: `own: ${item.name}`, item, from: "own" as Source })),
  ];
  const names = new Set<string>();
  return cases.map((c) => {
    let name = c.name;
    for (let n = 2; names.has(name); n++) name = `${c.name} (${n})`;
    names.add(name);
    return { ...c, name };
  });
}

let before: PrototypeState;
beforeAll(() => {
  before = prototypeState();
});

describe("the shared hostile corpus", () => {
  it("holds each kind of hostile input, prototype keys as own keys at every depth", () => {
    const values = (items: readonly HostileItem<unknown>[]) => items.map((i) => i.value);
    expect(values(HOSTILE_STRINGS)).toEqual(
      expect.arrayContaining([
        "\u0000",
        "\uD800",
        "\uDC00",
        "%2e%2e",
        "%C0%AF",
        "..",
        "%2f",
        "\\",
        ";",
        "[".repeat(REPEAT),
      ]),
    );
    expect(values(HOSTILE_NUMBER_TEXTS)).toEqual(
      expect.arrayContaining(["1e308", "-1e308", "9007199254740993", "-0", "NaN", "Infinity", "1.234,50", "1,234.50"]),
    );
    for (const key of PROTOTYPE_KEYS)
      for (const depth of [1, 2, 3, 4, 5]) {
        let node = PROTOTYPE_SHAPES.find((s) => s.name === `${key} at depth ${depth}`)?.value as Record<
          string,
          unknown
        >;
        for (let d = 1; d < depth; d++) node = node.a as Record<string, unknown>;
        expect(Object.hasOwn(node, key), `${key} at depth ${depth}`).toBe(true);
        expect(Object.getPrototypeOf(node)).toBe(Object.prototype);
      }
  });
});

for (const parser of PARSERS) {
  describe(parser.name, () => {
    for (const { name, item, from } of casesOf(parser))
      it(name, async () => {
        await expectControlled(parser, item, from, before);
      });
  });
}
