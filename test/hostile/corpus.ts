/**
 * The shared hostile corpus: what a stranger can send the portal, as data and small generators, grouped by the kind
 * of input (texts, numbers as text and as JSON, JSON shapes, query strings, paths, header values, file bytes, sheet
 * parts), so a parser's test takes the groups that apply to it. `parsers.test.ts` beside this file runs every parser
 * of outside input (SCIM and API bodies and query strings, file contents, headers, paths, tokens) over them: each
 * returns or refuses in its own way, leaves the prototypes as they were and completes.
 *
 * Every new parser of outside input is added to the list in test/hostile/parsers.test.ts in the same commit that adds
 * the parser. A new kind of hostile input goes here, in its group, and then reaches every parser that takes the group.
 *
 * Large inputs (10⁶ repetitions, 10⁶-element arrays, nesting 10⁴ deep) of the shared groups are made once, on first
 * use, and shared by every case that reads them (`lazyItem`: the item's `value` is a getter that builds and keeps it);
 * what a generator makes for one parser is built when its case reads it and then dropped (`madeItem`).
 */

export type HostileItem<T> = { readonly name: string; readonly value: T };

/** A million: the repetitions, elements and characters of the large items. */
export const REPEAT = 1_000_000;
/** How deep the deepest JSON nests. */
export const DEEP = 10_000;

/** The keys that reach a prototype when an object is merged or assigned by key. */
export const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype"] as const;
/** The key every prototype payload sets; a parser that pollutes makes `({}).hostilePolluted` true. */
export const POLLUTION_MARK = "hostilePolluted";
/** What a prototype key carries: `({}).x` and `({}).hostilePolluted` are defined once it lands on a prototype. */
export const PAYLOAD = `{"x":1,"${POLLUTION_MARK}":true}`;

/** An item whose value is built on first use and kept. */
export function lazyItem<T>(name: string, make: () => T): HostileItem<T> {
  let made = false;
  let kept: T;
  return {
    name,
    get value() {
      if (!made) {
        kept = make();
        made = true;
      }
      return kept;
    },
  };
}

/**
 * An item whose value is built each time it is read and not kept: what a generator makes for one parser's cases (read
 * once each), so that a few hundred variants of a 10⁶-element input are never all held at once.
 */
export function madeItem<T>(name: string, make: () => T): HostileItem<T> {
  return {
    name,
    get value() {
      return make();
    },
  };
}

const item = <T>(name: string, value: T): HostileItem<T> => ({ name, value });

/** A deterministic pseudo-random byte source (xorshift32): the same "random" bytes on every run. */
export function pseudoRandomBytes(length: number, seed = 0x9e3779b9): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Texts

/** The units repeated 10⁶ times: a separator, a quote, a bracket, escapes, NUL, a lone surrogate, line breaks. */
const REPEATED_UNITS = [";", '"', "[", "%", "\\", "\u0000", "\uD800", "\r\n"] as const;

const label = (text: string) => JSON.stringify(text.length > 24 ? `${text.slice(0, 24)}…` : text);

/** Texts as they come: empty, controls, broken Unicode, encodings, dot segments, case traps, key names, 10⁶ runs. */
export const HOSTILE_STRINGS: readonly HostileItem<string>[] = [
  item("empty", ""),
  item("space", " "),
  item("only white space", "\t \u00a0\u202f\u3000"),
  item("NUL", "\u0000"),
  item("NUL inside", "a\u0000b"),
  item("lone high surrogate", "\uD800"),
  item("lone low surrogate", "\uDC00"),
  item("lone surrogate inside", "a\uD800b"),
  item("surrogates reversed", "\uDC00\uD800"),
  item("replacement character", "\uFFFD"),
  item("UTF-8 BOM as text", "\uFEFF"),
  item("BOM before text", "\uFEFFa"),
  item("two BOMs", "\uFEFF\uFEFFa"),
  item("noncharacter U+FFFE", "\uFFFE"),
  item("CR", "\r"),
  item("LF", "\n"),
  item("CRLF", "\r\n"),
  item("LF CR", "\n\r"),
  item("header injection", "a\r\nX-Injected: 1"),
  item("C0 controls and DEL", "\u0001\u0008\u000b\u000c\u001b\u007f"),
  item("C1 control NEL", "a\u0085b"),
  item("line and paragraph separators", "a\u2028b\u2029c"),
  item("bidi override", "\u202egnp.exe"),
  item("zero-width joiner and space", "a\u200d\u200bb"),
  item("dotted capital I", "İ"),
  item("dotless small i", "ı"),
  item("sharp s", "ß"),
  item("ligature fi", "ﬁ"),
  item("Kelvin sign", "\u212a"),
  item("long s", "ſ"),
  item("combining ring", "A\u030a"),
  item("upper case", "ADMIN"),
  item("mixed case", "uSeRnAmE"),
  item("full-width digits", "１２３"),
  item("Arabic-Indic digits", "١٢٣"),
  ...PROTOTYPE_KEYS.map((key) => item(`key ${key}`, key)),
  item("key hasOwnProperty", "hasOwnProperty"),
  item("key toString", "toString"),
  item("key valueOf", "valueOf"),
  item("key __defineGetter__", "__defineGetter__"),
  item("key isPrototypeOf", "isPrototypeOf"),
  item("operator $where", "$where"),
  item("operator $gt", "$gt"),
  item("dotted field", "a.b"),
  item("dollar", "$"),
  item("operator object as text", '{"$ne":null}'),
  item("percent", "%"),
  item("percent zz", "%zz"),
  item("percent one digit", "%2"),
  item("encoded NUL", "%00"),
  item("overlong slash", "%C0%AF"),
  item("overlong dots", "%c0%ae%c0%ae"),
  item("encoded dot dot", "%2e%2e"),
  item("encoded dot dot upper", "%2E%2E"),
  item("half encoded dot dot", ".%2e"),
  item("dot dot", ".."),
  item("dot", "."),
  item("climbing path", "../../etc/passwd"),
  item("climbing backslashes", "..\\..\\windows"),
  item("encoded slash", "%2f"),
  item("encoded slash upper", "%2F"),
  item("encoded backslash", "%5c"),
  item("double encoded dots", "%252e%252e%252f"),
  item("full-width slash", "\uff0f"),
  item("division slash", "\u2215"),
  item("backslash", "\\"),
  item("UNC path", "\\\\server\\share"),
  item("double slash", "//"),
  item("triple slash", "///a"),
  item("inner double slash", "a//b"),
  item("semicolon", ";"),
  item("inner semicolon", "a;b"),
  item("question mark", "?"),
  item("hash", "#"),
  item("ampersand equals", "&=&"),
  item("plus", "+"),
  item("literal null", "null"),
  item("literal undefined", "undefined"),
  item("literal true", "true"),
  item("literal NaN", "NaN"),
  item("empty array text", "[]"),
  item("empty object text", "{}"),
  item("markup", "<script>alert(1)</script>"),
  item("formula", '=HYPERLINK("http://x")'),
  item("e-mail with plus and case", "Ana+1@Example.COM"),
  item("e-mail of prototype", "__proto__@example.com"),
  // A unit of several characters is repeated to 10⁶ characters, not 10⁶ times.
  ...REPEATED_UNITS.map((unit) => lazyItem(`10⁶ × ${label(unit)}`, () => unit.repeat(Math.ceil(REPEAT / unit.length)))),
];

// ---------------------------------------------------------------------------------------------------------------
// Numbers

/** Numbers as a person or a file writes them, and as they should never be read. */
export const HOSTILE_NUMBER_TEXTS: readonly HostileItem<string>[] = [
  item("1e308", "1e308"),
  item("-1e308", "-1e308"),
  item("1e309 (past a double)", "1e309"),
  item("-1e309", "-1e309"),
  item("2^53 + 1", "9007199254740993"),
  item("-(2^53 + 1)", "-9007199254740993"),
  item("2^31", "2147483648"),
  item("-2^31 - 1", "-2147483649"),
  item("2^64", "18446744073709551616"),
  item("minus zero", "-0"),
  item("minus zero pt-BR", "-0,00"),
  item("zero", "0"),
  item("NaN", "NaN"),
  item("Infinity", "Infinity"),
  item("-Infinity", "-Infinity"),
  item("pt-BR thousands and decimals", "1.234,50"),
  item("en-US thousands and decimals", "1,234.50"),
  item("pt-BR millions", "1.234.567,89"),
  item("en-US millions", "1,234,567.89"),
  item("negative pt-BR", "-1.234,50"),
  item("accounting negative", "(1.234,50)"),
  item("two signs", "--1"),
  item("sign after", "1-"),
  item("plus sign", "+1"),
  item("grouped with a space", "1 234"),
  item("leading comma", ",5"),
  item("leading point", ".5"),
  item("trailing point", "5."),
  item("trailing comma", "1,"),
  item("leading zeros", "00001"),
  item("hexadecimal", "0x10"),
  item("binary", "0b11"),
  item("octal", "0o17"),
  item("underscores", "1_000"),
  item("exponent alone", "1e"),
  item("exponent first", "e1"),
  item("tiny", "4.9e-324"),
  item("below the tiniest", "1e-400"),
  item("many decimals", "0,123456789012345678901234567890"),
  item("currency", "R$ 1.234,50"),
  item("percent", "12,5%"),
  item("-1", "-1"),
  item("-1,5", "-1,5"),
  item("400 nines", "9".repeat(400)),
  lazyItem("10⁶ digits", () => `1${"0".repeat(REPEAT - 1)}`),
  lazyItem("10⁶ thousands groups", () => `1${".000".repeat(REPEAT / 4)}`),
  lazyItem("10⁶ minus signs", () => "-".repeat(REPEAT)),
];

/** A JSON text and what JSON.parse makes of it (NaN and ±Infinity have no JSON text: a reader of text refuses them). */
export type JsonItem = HostileItem<unknown> & { readonly text: string };

/** `json` (an item whose value is a parsed JSON text) with that text. */
function withText(json: HostileItem<unknown>, text: string): JsonItem {
  return Object.defineProperty(json, "text", { value: text, enumerable: true }) as JsonItem;
}

/** A JSON item parsed on first use and kept. */
const jsonOf = (name: string, text: string): JsonItem =>
  withText(
    lazyItem(name, () => JSON.parse(text)),
    text,
  );
/** A JSON item parsed anew each time it is read (a generator's: see madeItem). */
const madeJson = (name: string, text: string): JsonItem =>
  withText(
    madeItem(name, () => JSON.parse(text)),
    text,
  );
/** A large JSON item: its text made on first use and kept, and parsed on first use and kept. */
const lazyJson = (name: string, makeText: () => string): JsonItem => {
  let text: string | undefined;
  const textOf = () => (text ??= makeText());
  const json = lazyItem(name, () => JSON.parse(textOf()));
  return Object.defineProperty(json, "text", { get: textOf, enumerable: true }) as JsonItem;
};

/** Numbers as JSON carries them (1e309 parses to Infinity), and the values no JSON text has. */
export const HOSTILE_JSON_NUMBERS: readonly JsonItem[] = [
  jsonOf("1e308", "1e308"),
  jsonOf("-1e308", "-1e308"),
  jsonOf("1e309 (Infinity once parsed)", "1e309"),
  jsonOf("-1e309 (-Infinity once parsed)", "-1e309"),
  jsonOf("largest double", "1.7976931348623157e308"),
  jsonOf("2^53 + 1", "9007199254740993"),
  jsonOf("-(2^53 + 1)", "-9007199254740993"),
  jsonOf("minus zero", "-0"),
  jsonOf("tiny", "5e-324"),
  jsonOf("below the tiniest", "1e-400"),
  jsonOf("30 digits", "123456789012345678901234567890"),
  jsonOf("-1", "-1"),
  jsonOf("fraction", "0.1"),
  jsonOf("1.005", "1.005"),
  jsonOf("1e21", "1e21"),
  jsonOf("2^31", "2147483648"),
  withText(item("NaN", Number.NaN), "NaN"),
  withText(item("Infinity", Number.POSITIVE_INFINITY), "Infinity"),
  withText(item("-Infinity", Number.NEGATIVE_INFINITY), "-Infinity"),
];

// ---------------------------------------------------------------------------------------------------------------
// JSON shapes

/** `inner` wrapped in `depth - 1` objects `{"a": …}`: a key placed at `depth`. */
function atDepth(inner: string, depth: number): string {
  return `${'{"a":'.repeat(depth - 1)}${inner}${"}".repeat(depth - 1)}`;
}

const DEPTHS = [1, 2, 3, 4, 5];

/** Prototype keys at every depth from 1 to 5, in objects and in arrays, all own keys (made by JSON.parse). */
export const PROTOTYPE_SHAPES: readonly JsonItem[] = [
  ...DEPTHS.flatMap((depth) => [
    ...PROTOTYPE_KEYS.map((key) => jsonOf(`${key} at depth ${depth}`, atDepth(`{"${key}":${PAYLOAD}}`, depth))),
    jsonOf(`constructor.prototype at depth ${depth}`, atDepth(`{"constructor":{"prototype":${PAYLOAD}}}`, depth)),
    jsonOf(`__proto__ beside a field at depth ${depth}`, atDepth(`{"b":1,"__proto__":${PAYLOAD}}`, depth)),
  ]),
  jsonOf("__proto__ in an array", `[{"__proto__":${PAYLOAD}}]`),
  jsonOf("constructor.prototype in an array", `[{"constructor":{"prototype":${PAYLOAD}}}]`),
  jsonOf("__proto__ of __proto__", `{"__proto__":{"__proto__":${PAYLOAD}}}`),
  jsonOf("__proto__ array", '{"__proto__":[1,2]}'),
  jsonOf("__proto__ null", '{"__proto__":null}'),
  jsonOf("__proto__ text", '{"__proto__":"x"}'),
  jsonOf(
    "prototype keys together",
    `{"__proto__":${PAYLOAD},"constructor":{"prototype":${PAYLOAD}},"prototype":${PAYLOAD}}`,
  ),
  jsonOf("key toString", '{"toString":1,"valueOf":"x","hasOwnProperty":null}'),
  jsonOf("operator keys", '{"$where":"1","$gt":"","a.b":1}'),
  lazyJson("__proto__ nested 100 deep", () => `${'{"__proto__":'.repeat(100)}${PAYLOAD}${"}".repeat(100)}`),
];

/** Shapes no schema expects: scalars, empties, arrays for objects, huge arrays, deep nesting, long values. */
export const HOSTILE_SHAPES: readonly JsonItem[] = [
  jsonOf("null", "null"),
  jsonOf("true", "true"),
  jsonOf("false", "false"),
  jsonOf("zero", "0"),
  jsonOf("empty string", '""'),
  jsonOf("a string", '"text"'),
  jsonOf("empty object", "{}"),
  jsonOf("empty array", "[]"),
  jsonOf("array of an empty object", "[{}]"),
  jsonOf("array of null", "[null]"),
  jsonOf("nested empty arrays", "[[[]]]"),
  jsonOf("empty key", '{"":""}'),
  jsonOf("null field", '{"a":null}'),
  jsonOf("NUL key", '{"\\u0000":1}'),
  jsonOf("lone surrogate key and value", '{"\\ud800":"\\udc00"}'),
  jsonOf("duplicate keys", '{"a":1,"a":{"b":2}}'),
  lazyJson("10⁶ zeros", () => `[${"0,".repeat(REPEAT - 1)}0]`),
  lazyJson("10⁶ empty objects", () => `[${"{},".repeat(REPEAT - 1)}{}]`),
  lazyJson("10⁶ strings", () => `[${'"a",'.repeat(REPEAT - 1)}"a"]`),
  lazyJson("10⁵ keys", () => `{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`),
  lazyJson("10⁶-character value", () => `{"a":"${"a".repeat(REPEAT)}"}`),
  lazyJson("arrays 10⁴ deep", () => `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`),
  lazyJson("objects 10⁴ deep", () => `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`),
  lazyJson("arrays and objects 10⁴ deep", () => `${'[{"a":'.repeat(DEEP / 2)}1${"}]".repeat(DEEP / 2)}`),
];

/** Every JSON value of the corpus: numbers, prototype keys, shapes. */
export const HOSTILE_JSON: readonly JsonItem[] = [...HOSTILE_JSON_NUMBERS, ...PROTOTYPE_SHAPES, ...HOSTILE_SHAPES];

// ---------------------------------------------------------------------------------------------------------------
// Generators over a valid sample: prototype keys at every depth of it, every field missing or hostile

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Step = string | number;

/** The paths of every object (`objects`) and every value below the root (`fields`) in `sample`. */
function pathsOf(sample: Json): { objects: Step[][]; fields: Step[][] } {
  const objects: Step[][] = [];
  const fields: Step[][] = [];
  const walk = (value: Json, path: Step[]) => {
    if (Array.isArray(value)) {
      value.forEach((entry, i) => {
        fields.push([...path, i]);
        walk(entry, [...path, i]);
      });
    } else if (value !== null && typeof value === "object") {
      objects.push(path);
      for (const key of Object.keys(value)) {
        fields.push([...path, key]);
        walk(value[key], [...path, key]);
      }
    }
  };
  walk(sample, []);
  return { objects, fields };
}

/** A copy of `sample` with `change` applied at `path` (`sample` is untouched). */
function changedCopy(sample: Json, path: Step[], change: (parent: Json[] | Record<string, Json>, last: Step) => void) {
  const copy = JSON.parse(JSON.stringify(sample)) as Json;
  if (path.length === 0) {
    const holder: Record<string, Json> = { root: copy };
    change(holder, "root");
    return holder.root;
  }
  let parent = copy as Record<string, Json>;
  for (const step of path.slice(0, -1)) parent = parent[step as string] as Record<string, Json>;
  change(parent, path[path.length - 1]);
  return copy;
}

const pathName = (path: Step[]) => (path.length === 0 ? "the root" : path.join("."));

/**
 * `sample` (a valid input of a parser) with a prototype key added to each object in it (`__proto__`, `constructor`,
 * `prototype` and `constructor.prototype`, each carrying PAYLOAD), and each field replaced by `{"__proto__": PAYLOAD}`.
 * Made as JSON text and parsed, so every key is an own key as a JSON body's are.
 */
export function prototypeKeyVariants(valid: object): JsonItem[] {
  const sample = valid as Json;
  const { objects, fields } = pathsOf(sample);
  const inserts = [
    ...PROTOTYPE_KEYS.map((key) => ({ name: key, text: `"${key}":${PAYLOAD}` })),
    { name: "constructor.prototype", text: `"constructor":{"prototype":${PAYLOAD}}` },
  ];
  const MARK = "__hostile_insert__";
  const out: JsonItem[] = [];
  for (const path of objects) {
    for (const insert of inserts) {
      // The insert is spliced into the text so that JSON.parse, not an assignment, makes the key.
      const marked = JSON.stringify(
        path.length === 0
          ? { [MARK]: 0, ...(sample as Record<string, Json>) }
          : changedCopy(sample, path, (parent, last) => {
              const target = (parent as Record<string, Json>)[last as string] as Record<string, Json>;
              (parent as Record<string, Json>)[last as string] = { [MARK]: 0, ...target };
            }),
      );
      out.push(madeJson(`${insert.name} in ${pathName(path)}`, marked.replace(`"${MARK}":0`, insert.text)));
    }
  }
  for (const path of fields) {
    const text = JSON.stringify(
      changedCopy(sample, path, (parent, last) => {
        (parent as Record<string, Json>)[last as string] = "__hostile_value__";
      }),
    ).replace('"__hostile_value__"', `{"__proto__":${PAYLOAD}}`);
    out.push(madeJson(`${pathName(path)} = {"__proto__":…}`, text));
  }
  return out;
}

/** The values a field is replaced with: wrong types, empties, hostile numbers and texts, huge arrays. */
const FIELD_VALUES: readonly HostileItem<() => unknown>[] = [
  item("null", () => null),
  item("empty string", () => ""),
  item("empty array", () => []),
  item("empty object", () => ({})),
  item("true", () => true),
  item("1e308", () => 1e308),
  item("-1e308", () => -1e308),
  item("Infinity", () => Number.POSITIVE_INFINITY),
  item("NaN", () => Number.NaN),
  item("-0", () => -0),
  item("2^53 + 2 (past the safe integers)", () => 2 ** 53 + 2),
  item("-1", () => -1),
  item("NUL", () => "\u0000"),
  item("lone surrogate", () => "\uD800"),
  item("__proto__ text", () => "__proto__"),
  item("dot segments", () => "../%2e%2e/%2f"),
  item("10⁶ characters", () => hugeString.value),
  item("10⁶ elements", () => hugeArray.value),
  item("10⁴ deep", () => deepArray.value),
];

const LARGE_VALUES = new Set(["10⁶ characters", "10⁶ elements", "10⁴ deep"]);
const hugeString = lazyItem("10⁶ characters", () => "[".repeat(REPEAT));
const hugeArray = lazyItem("10⁶ elements", () => Array.from({ length: REPEAT }, () => "a"));
const deepArray = lazyItem("10⁴ deep", () => JSON.parse(`${"[".repeat(DEEP)}${"]".repeat(DEEP)}`) as unknown);

/**
 * `sample` with each field missing, and each replaced by every value of FIELD_VALUES (one at a time). The large
 * values are the same objects in every variant: made once.
 */
export function fieldVariants(valid: object): HostileItem<unknown>[] {
  const sample = valid as Json;
  const { fields } = pathsOf(sample);
  const out: HostileItem<unknown>[] = [];
  const copyWith = (path: Step[], set: (parent: Record<string, unknown>, key: string) => void) => {
    const copy = JSON.parse(JSON.stringify(sample)) as Record<string, unknown>;
    let parent = copy;
    for (const step of path.slice(0, -1)) parent = parent[step as string] as Record<string, unknown>;
    set(parent, String(path[path.length - 1]));
    return copy;
  };
  for (const path of fields) {
    out.push(
      madeItem(`${pathName(path)} missing`, () =>
        copyWith(path, (parent, key) => {
          if (Array.isArray(parent)) parent.splice(Number(key), 1);
          else delete parent[key];
        }),
      ),
    );
    // The large values replace the top-level fields only: one 10⁶-element array per field is enough to show a parser
    // bounded, and a few hundred of them would make the run long.
    for (const value of path.length === 1 ? FIELD_VALUES : FIELD_VALUES.filter((v) => !LARGE_VALUES.has(v.name)))
      out.push(
        madeItem(`${pathName(path)} = ${value.name}`, () =>
          copyWith(path, (parent, key) => {
            parent[key] = value.value();
          }),
        ),
      );
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Query strings

/** Query strings (the text after `?`) as a client can write them, whatever keys the parser knows. */
export const HOSTILE_QUERIES: readonly HostileItem<string>[] = [
  item("empty", ""),
  item("lone ampersands", "&&&"),
  item("lone equals", "=&=="),
  item("__proto__", "__proto__=1"),
  item("__proto__ bracket", "__proto__[x]=1&__proto__[hostilePolluted]=true"),
  item("constructor prototype bracket", "constructor[prototype][x]=1"),
  item("__proto__ dotted", "__proto__.x=1&constructor.prototype.x=1"),
  item("nested bracket", "a[__proto__][x]=1&a[b][c][d][e]=1"),
  item("prototype keys as keys", "constructor=1&prototype=1&toString=1&hasOwnProperty=1&valueOf=1"),
  item("bad percent escapes", "%zz=%zz&a=%&b=%2"),
  item("overlong escapes", "a=%C0%AF&b=%c0%ae%c0%ae"),
  item("encoded NUL", "a=%00&%00=a"),
  item("lone surrogate escapes", "a=%ED%A0%80&b=%F0%90"),
  item("operators", "$where=1&a[$gt]=&filter[$ne]=null"),
  item("plus and spaces", "a=+++&b=%20%20"),
  madeItem("10⁶ ampersands", () => "&".repeat(REPEAT)),
  madeItem("10⁶ equals", () => `a=${"=".repeat(REPEAT)}`),
  madeItem("10⁶ percents", () => `a=${"%".repeat(REPEAT)}`),
  madeItem("10⁵ repeats of one key", () => "a=1&".repeat(100_000)),
  madeItem("10⁵ distinct keys", () => Array.from({ length: 100_000 }, (_, i) => `k${i}=${i}`).join("&")),
];

/**
 * Queries over a parser's own `keys`: every key set to each hostile text and number (all keys at once), each key
 * repeated, written as an array (`key[]`), without a value, and in upper case.
 */
export function queryVariants(keys: readonly string[]): HostileItem<string>[] {
  const out: HostileItem<string>[] = [];
  // The 10⁶-character texts are two items below, written without escapes: percent-encoding megabytes of text for
  // every key of every parser would be most of the run.
  for (const text of [...HOSTILE_STRINGS, ...HOSTILE_NUMBER_TEXTS].filter((t) => !t.name.startsWith("10⁶"))) {
    out.push(
      madeItem(`every key = ${text.name}`, () => {
        const params = new URLSearchParams();
        for (const key of keys) params.append(key, text.value);
        return params.toString();
      }),
    );
  }
  out.push(madeItem("every key = 10⁶ × %", () => keys.map((k) => `${k}=${"%".repeat(REPEAT)}`).join("&")));
  out.push(madeItem("every key = 10⁶ digits", () => keys.map((k) => `${k}=1${"0".repeat(REPEAT)}`).join("&")));
  out.push(item("every key twice", keys.map((k) => `${k}=1&${k}=2`).join("&")));
  out.push(item("every key as an array", keys.map((k) => `${k}[]=1&${k}[0]=2`).join("&")));
  out.push(item("every key without a value", keys.join("&")));
  out.push(item("every key in upper case", keys.map((k) => `${k.toUpperCase()}=1`).join("&")));
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Paths and headers

/** Request targets and paths: dot segments raw and encoded, encoded slashes, backslashes, case, 10⁶ segments. */
export const HOSTILE_PATHS: readonly HostileItem<string>[] = [
  item("root", "/"),
  item("double slash", "//"),
  item("protocol-relative", "//evil.example/x"),
  item("dot dot", "/.."),
  item("climbing", "/a/../../b"),
  item("encoded dot dot", "/%2e%2e/%2e%2e/x"),
  item("encoded dot dot upper", "/%2E%2E%2Fx"),
  item("half encoded", "/.%2e/x"),
  item("double encoded", "/%252e%252e/x"),
  item("overlong slash", "/%C0%AF..%C0%AFx"),
  item("backslashes", "/\\..\\x"),
  item("encoded backslash", "/%5c..%5cx"),
  item("API climbing out", "/api/v1/../../user/tokens"),
  item("SCIM climbing out", "/scim/v2/%2e%2e/%2e%2e/user/tokens"),
  item("API in upper case", "/API/V1/jobs"),
  item("SCIM in mixed case", "/Scim/V2/Users"),
  item("API with encoded slash", "/api%2fv1/jobs"),
  item("secret path", "/download/abc.def"),
  item("secret path in upper case", "/DOWNLOAD/abc"),
  item("secret path encoded", "/%64ownload/abc"),
  item("secret path with data", "/recovery/abc.data"),
  item("NUL", "/a%00b"),
  item("raw NUL", "/a\u0000b"),
  item("bad escape", "/a%zz"),
  item("lone surrogate", "/a\uD800b"),
  item("semicolon parameters", "/a;jsessionid=1/b"),
  item("query only", "/?_data=routes/x"),
  item("legacy data", "/x?_data=routes%2Fuser.tokens"),
  item("prototype query", "/x?__proto__[x]=1&constructor[prototype][x]=1"),
  item("hash", "/x#frag"),
  item("absolute target", "http://portal.example/x"),
  item("absolute with userinfo", "http://user:pass@portal.example/x"),
  item("absolute with bad port", "http://portal.example:99999/x"),
  item("absolute with port 0", "http://portal.example:0/x"),
  item("absolute unclosed IPv6", "http://[::1/x"),
  item("absolute other scheme", "file:///etc/passwd"),
  item("authority form", "portal.example:443"),
  item("asterisk form", "*"),
  item("empty", ""),
  item("no leading slash", "x/y"),
  lazyItem("10⁶ slashes", () => "/".repeat(REPEAT)),
  lazyItem("10⁶ dot segments", () => "/..".repeat(REPEAT / 3)),
  lazyItem("10⁶ encoded dot segments", () => "/%2e%2e".repeat(REPEAT / 7)),
  lazyItem("10⁶-character segment", () => `/${"a".repeat(REPEAT)}`),
  lazyItem("10⁶ query ampersands", () => `/x?${"&".repeat(REPEAT)}`),
];

/** Header values: hosts, origins, encodings, ids, media types (each header reader also takes HOSTILE_STRINGS). */
export const HOSTILE_HEADERS: readonly HostileItem<string>[] = [
  item("host", "portal.example"),
  item("host upper case", "PORTAL.EXAMPLE"),
  item("host port 0", "portal.example:0"),
  item("host port 65536", "portal.example:65536"),
  item("host port 99999", "portal.example:99999"),
  item("host port negative", "portal.example:-1"),
  item("host empty port", "portal.example:"),
  item("host two ports", "portal.example:80:80"),
  item("host userinfo", "user@portal.example"),
  item("host path", "portal.example/x"),
  item("host trailing dot", "portal.example."),
  item("host empty label", "a..example"),
  item("host leading hyphen", "-a.example"),
  item("host label 64", `${"a".repeat(64)}.example`),
  item("IPv6", "[::1]"),
  item("IPv6 with port", "[::1]:8080"),
  item("IPv6 unclosed", "[::1"),
  item("IPv6 bad", "[zz::1]"),
  item("IPv6 scope", "[fe80::1%25eth0]"),
  item("IPv4 overflow", "999.999.999.999"),
  item("IPv4 of five parts", "1.2.3.4.5"),
  item("IPv4 past 32 bits", "0x100000000"),
  item("numeric last label", "portal.example.1"),
  item("host list", "a.example, b.example"),
  item("host NUL", "portal.example\u0000.evil"),
  item("origin", "https://portal.example"),
  item("origin upper case", "HTTPS://PORTAL.EXAMPLE"),
  item("origin null", "null"),
  item("origin with path", "https://portal.example/x"),
  item("origin userinfo", "https://portal.example@evil.example"),
  item("origin lookalike", "https://portal.example.evil.example"),
  item("origin javascript", "javascript:alert(1)"),
  item("encoding q NaN", "br;q=NaN, gzip"),
  item("encoding q huge", "gzip;q=1e308, br;q=-1"),
  item("encoding q negative", "*;q=-1"),
  item("encoding star", "*"),
  item("encoding identity zero", "identity;q=0"),
  item("encoding prototype", "__proto__, constructor;q=1"),
  item("encoding bad parameters", "br;;;q;=;q=, ,;"),
  item("media type", "text/csv; charset=windows-1252"),
  item("media type prototype", "__proto__"),
  item("media type constructor", "constructor"),
  item("media type toString", "toString"),
  item("media type upper", "TEXT/CSV"),
  item("media type parameters only", ";charset=utf-8"),
  item("request id", "abc-123"),
  item("request id 129", "a".repeat(129)),
  item("request id with space", "abc 123"),
  lazyItem("10⁶ commas", () => ",".repeat(REPEAT)),
  lazyItem("10⁶ semicolons", () => ";".repeat(REPEAT)),
  lazyItem("10⁶ q parameters", () => "br;q=0.5,".repeat(REPEAT / 9)),
  lazyItem("10⁶ labels", () => "a.".repeat(REPEAT / 2)),
];

// ---------------------------------------------------------------------------------------------------------------
// File contents

/** Windows-1252 bytes of `text` (Latin-1 plus the few of 0x80–0x9F the portal's files use). */
export function windows1252(text: string): Buffer {
  const special: Record<string, number> = { "€": 0x80, "‚": 0x82, "“": 0x93, "”": 0x94, "–": 0x96, "—": 0x97 };
  return Buffer.from(
    Array.from(text, (ch) =>
      Object.hasOwn(special, ch) ? special[ch] : ch.charCodeAt(0) <= 0xff ? ch.charCodeAt(0) : 0x3f,
    ),
  );
}

/** UTF-16LE bytes of `text` with its byte-order mark (Excel's "Texto Unicode"). */
export function utf16le(text: string): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
}

/** A pt-BR CSV as Excel writes it (`;`, comma decimals, Windows-1252's curly quotes, dash and euro). */
export const PT_BR_CSV = "Descrição;Valor;Mês\r\nAção “especial” – €;1.234,50;2026-03\r\nNão;-0,05;03/2026\r\n";

/** File bytes: empty, broken encodings, byte-order marks, pt-BR CSV in each encoding, quotes and breaks 10⁶ times. */
export const HOSTILE_BYTES: readonly HostileItem<Buffer>[] = [
  item("empty", Buffer.alloc(0)),
  item("one NUL", Buffer.from([0])),
  item("one 0xFF", Buffer.from([0xff])),
  item("UTF-8 BOM alone", Buffer.from([0xef, 0xbb, 0xbf])),
  item("UTF-16LE BOM alone", Buffer.from([0xff, 0xfe])),
  item(
    "UTF-16BE BOM and text",
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from("\u0000a\u0000;\u0000b", "latin1")]),
  ),
  item("two UTF-8 BOMs", Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x61])),
  item("overlong slash", Buffer.from([0x61, 0xc0, 0xaf, 0x62])),
  item("encoded surrogate", Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x3b, 0x62])),
  item("five-byte sequence", Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80])),
  item("lone continuation", Buffer.from([0x80, 0x3b, 0x80])),
  item("sequence cut at the end", Buffer.from([0x61, 0x3b, 0xe2, 0x82])),
  item("pt-BR CSV in UTF-8", Buffer.from(PT_BR_CSV)),
  item("pt-BR CSV with BOM", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PT_BR_CSV)])),
  item("pt-BR CSV in Windows-1252", windows1252(PT_BR_CSV)),
  item("pt-BR CSV in UTF-16LE", utf16le(PT_BR_CSV)),
  item("en-US CSV with comma decimals quoted", Buffer.from('name,value\r\n"a,b","1,234.50"\r\n')),
  item("header only", Buffer.from("a;b;c")),
  item("NUL in a field", Buffer.from("a;b\r\nx\u0000y;1\r\n")),
  item("unclosed quote", Buffer.from('a;b\r\n"x;1\r\n')),
  item("quote inside a field", Buffer.from('a;b\r\nx"y;1\r\n')),
  item("text after a closing quote", Buffer.from('a;b\r\n"x"y;1\r\n')),
  item("mixed line breaks", Buffer.from("a;b\r\n1;2\n3;4\r5;6\r\n")),
  item("ZIP signature then garbage", Buffer.concat([Buffer.from("PK\u0003\u0004", "latin1"), pseudoRandomBytes(256)])),
  item("ZIP end record alone", Buffer.concat([Buffer.from("PK\u0005\u0006", "latin1"), Buffer.alloc(18)])),
  lazyItem("64 KB pseudo-random", () => pseudoRandomBytes(64 * 1024)),
  lazyItem("10⁶ NULs", () => Buffer.alloc(REPEAT)),
  lazyItem("10⁶ 0xFF", () => Buffer.alloc(REPEAT, 0xff)),
  lazyItem("10⁶ semicolons", () => Buffer.from(`a;b\r\n${";".repeat(REPEAT)}\r\n`)),
  lazyItem("10⁶ quotes", () => Buffer.from(`a;b\r\n${'"'.repeat(REPEAT)}\r\n`)),
  lazyItem("10⁶ doubled quotes in a quoted field", () => Buffer.from(`a;b\r\n"${'""'.repeat(REPEAT / 2)}";1\r\n`)),
  lazyItem("10⁶ LF", () => Buffer.from(`a;b\n${"\n".repeat(REPEAT)}`)),
  lazyItem("10⁶ CR", () => Buffer.from(`a;b\r${"\r".repeat(REPEAT)}`)),
  lazyItem("10⁶ CRLF", () => Buffer.from(`a;b\r\n${"\r\n".repeat(REPEAT)}`)),
  // 10⁵ rows, not 10⁶: rows cost the reader per row, and bench/ reads files of up to 256 MB.
  lazyItem("10⁵ rows", () => Buffer.from(`a;b\r\n${"1;1.234,50\r\n".repeat(REPEAT / 10)}`)),
  lazyItem("10⁶ brackets", () => Buffer.from(`a;b\r\n${"[".repeat(REPEAT)}`)),
  lazyItem("a record over 1 MiB", () => Buffer.from(`a;b\r\n${"x".repeat(1024 * 1024 + 1)};1\r\n`)),
  lazyItem("an unclosed quote over 1 MiB", () => Buffer.from(`a;b\r\n"${"x\r\n".repeat(400_000)}`)),
];

// ---------------------------------------------------------------------------------------------------------------
// Spreadsheet parts

/** Text as XML character data (a lone surrogate stays one: the package's UTF-8 writes it as U+FFFD). */
export const xmlText = (text: string): string =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

/** A worksheet part holding `rows` (the <row> elements), and the shared strings its `t="s"` cells index. */
export type SheetParts = { sheetRows: string; sharedStrings?: string[] };

const cellRow = (cells: string, r = ' r="1"') => `<row${r}>${cells}</row>`;

/** Worksheets whose references, indexes, values, types and entities are out of bounds or malformed. */
export const HOSTILE_SHEETS: readonly HostileItem<SheetParts>[] = [
  item("no rows", { sheetRows: "" }),
  item("row 0", { sheetRows: cellRow('<c r="A0"><v>1</v></c>', ' r="0"') }),
  item("negative row", { sheetRows: cellRow('<c r="A-1"><v>1</v></c>', ' r="-1"') }),
  item("row past Excel", { sheetRows: cellRow('<c r="A1048577"><v>1</v></c>', ' r="1048577"') }),
  item("row of 30 digits", { sheetRows: cellRow("<c><v>1</v></c>", ` r="${"9".repeat(30)}"`) }),
  item("row NaN", { sheetRows: cellRow("<c><v>1</v></c>", ' r="NaN"') }),
  item("row 1e308", { sheetRows: cellRow("<c><v>1</v></c>", ' r="1e308"') }),
  item("column past XFD", { sheetRows: cellRow('<c r="XFE1"><v>1</v></c>') }),
  item("column of 12 letters", { sheetRows: cellRow('<c r="AAAAAAAAAAAA1"><v>1</v></c>') }),
  item("reference __proto__", { sheetRows: cellRow('<c r="__proto__"><v>1</v></c>') }),
  item("reference constructor1", { sheetRows: cellRow('<c r="constructor1"><v>1</v></c>') }),
  item("reference empty", { sheetRows: cellRow('<c r=""><v>1</v></c>') }),
  item("shared string -1", { sheetRows: cellRow('<c r="A1" t="s"><v>-1</v></c>'), sharedStrings: ["a"] }),
  item("shared string past the table", {
    sheetRows: cellRow('<c r="A1" t="s"><v>99999999</v></c>'),
    sharedStrings: ["a"],
  }),
  item("shared string __proto__", { sheetRows: cellRow('<c r="A1" t="s"><v>__proto__</v></c>'), sharedStrings: ["a"] }),
  item("shared string constructor", {
    sheetRows: cellRow('<c r="A1" t="s"><v>constructor</v></c>'),
    sharedStrings: ["a"],
  }),
  item("shared string 1e308", { sheetRows: cellRow('<c r="A1" t="s"><v>1e308</v></c>'), sharedStrings: ["a"] }),
  item("number NaN", { sheetRows: cellRow('<c r="A1"><v>NaN</v></c>') }),
  item("number Infinity", { sheetRows: cellRow('<c r="A1"><v>Infinity</v></c>') }),
  item("number 1e309", { sheetRows: cellRow('<c r="A1"><v>1e309</v></c>') }),
  item("number 2^53 + 1", { sheetRows: cellRow('<c r="A1"><v>9007199254740993</v></c>') }),
  item("number pt-BR", { sheetRows: cellRow('<c r="A1"><v>1.234,50</v></c>') }),
  item("number empty", { sheetRows: cellRow('<c r="A1"><v></v></c>') }),
  item("boolean 2", { sheetRows: cellRow('<c r="A1" t="b"><v>2</v></c>') }),
  item("date not a date", { sheetRows: cellRow('<c r="A1" t="d"><v>not a date</v></c>') }),
  item("date far", { sheetRows: cellRow('<c r="A1" t="d"><v>+275760-09-14T00:00:00Z</v></c>') }),
  item("date style on 1e308", { sheetRows: cellRow('<c r="A1" s="1"><v>1e308</v></c>') }),
  item("style index huge", { sheetRows: cellRow('<c r="A1" s="99999999999"><v>1</v></c>') }),
  item("style index __proto__", { sheetRows: cellRow('<c r="A1" s="__proto__"><v>1</v></c>') }),
  item("error cell", { sheetRows: cellRow('<c r="A1" t="e"><v>#REF!</v></c>') }),
  item("type __proto__", { sheetRows: cellRow('<c r="A1" t="__proto__"><v>1</v></c>') }),
  item("type constructor", { sheetRows: cellRow('<c r="A1" t="constructor"><v>1</v></c>') }),
  item("entity NUL", { sheetRows: cellRow('<c r="A1" t="inlineStr"><is><t>&#0;</t></is></c>') }),
  item("entity surrogate", { sheetRows: cellRow('<c r="A1" t="inlineStr"><is><t>&#xD800;</t></is></c>') }),
  item("entity past Unicode", {
    sheetRows: cellRow('<c r="A1" t="inlineStr"><is><t>&#x110000;&#99999999999;</t></is></c>'),
  }),
  item("entity unknown", { sheetRows: cellRow('<c r="A1" t="inlineStr"><is><t>&foo;&__proto__;&amp</t></is></c>') }),
  item("CDATA", { sheetRows: cellRow('<c r="A1" t="inlineStr"><is><t><![CDATA[<x>]]></t></is></c>') }),
  item("attribute __proto__", { sheetRows: cellRow('<c r="A1" __proto__="1" constructor="2"><v>1</v></c>') }),
  item("unclosed cell", { sheetRows: cellRow('<c r="A1"><v>1</v>') }),
  item("unclosed row", { sheetRows: '<row r="1"><c r="A1"><v>1</v></c>' }),
  item("rows out of order", {
    sheetRows: `${cellRow('<c r="A2"><v>2</v></c>', ' r="2"')}${cellRow('<c r="A1"><v>1</v></c>')}`,
  }),
  item("cells out of order", { sheetRows: cellRow('<c r="B1"><v>2</v></c><c r="A1"><v>1</v></c>') }),
  item("same cell twice", { sheetRows: cellRow('<c r="A1"><v>1</v></c><c r="A1"><v>2</v></c>') }),
  madeItem("10⁶ rows without r", () => ({
    sheetRows: '<row><c t="inlineStr"><is><t>a</t></is></c></row>'.repeat(REPEAT),
  })),
  madeItem("10⁶ empty cells", () => ({ sheetRows: cellRow("<c/>".repeat(REPEAT)) })),
  madeItem("10⁶ escaped ampersands", () => ({
    sheetRows: cellRow(`<c r="A1" t="inlineStr"><is><t>${"&amp;".repeat(REPEAT)}</t></is></c>`),
  })),
  madeItem("10⁶ brackets in a value", () => ({
    sheetRows: cellRow(`<c r="A1" t="inlineStr"><is><t>${"[".repeat(REPEAT)}</t></is></c>`),
  })),
  madeItem("elements 10⁴ deep", () => ({
    sheetRows: cellRow(`<c r="A1" t="inlineStr"><is>${"<r>".repeat(DEEP)}<t>a</t>${"</r>".repeat(DEEP)}</is></c>`),
  })),
];

/** A worksheet whose first row holds `text` as an inline string, a shared string and a number's text. */
export function sheetOfText(text: string): SheetParts {
  const escaped = xmlText(text);
  return {
    sheetRows: cellRow(
      `<c r="A1" t="inlineStr"><is><t>${escaped}</t></is></c><c r="B1" t="s"><v>0</v></c><c r="C1"><v>${escaped}</v></c>`,
    ),
    sharedStrings: [text],
  };
}
