/**
 * docs/data-contract.md and docs/data-contract-001.md against the code: the contract is parsed strictly (a malformed section
 * fails with a message naming it), then
 * - every index a model declares (allIndexes) is listed in its collection's section with the same key (in order),
 *   name (MongoDB's default name when none is declared) and options, and every listed index is declared;
 * - every collection a model declares an index on, names as a collection constant, or that holds documents after the
 *   demo seed has a section, and every section is a collection some model (or the seed script) names;
 * - every seeded document (up to SAMPLE per collection) holds only listed fields, every required one, and values
 *   of the listed types;
 * - every section's example parses as relaxed Extended JSON and conforms to its own table the same way.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { EJSON } from "bson";
import type { Db, Document } from "mongodb";
import { beforeAll, describe, expect, it } from "vitest";
import { allIndexes } from "~/models/all-indexes.server";
import type { IndexDeclaration } from "~/models/indexes";
import { runSeed, SEED_STATE } from "../scripts/seed-run";
import { useTestDatabase } from "./db";

/** The contract, in three files (spec 000's collections, spec 001's, then the cross-screen work's): sections are read from all. */
const CONTRACT_FILES = ["docs/data-contract.md", "docs/data-contract-001.md", "docs/data-contract-workflow.md"];
/** Documents read per seeded collection. */
const SAMPLE = 3_000;
/** Problems listed per collection before the rest are only counted. */
const MAX_PROBLEMS = 40;

/**
 * Exported string constants of the models that are not collection names (every other `UPPER_CASE = "lower_case"`
 * export of app/models/*.server.ts is taken for one and must have a section).
 */
const NOT_COLLECTIONS: Record<string, string> = {
  ACTUAL_SCENARIO: "actual",
  DEFAULT_FILE_TARGET: "data",
  FILE_PARAM: "file",
  FILE_TARGET_FIELD: "target",
  JOB_FILE_PARAM: "arquivo",
  RETRY_BATCH_PARAM: "lote",
};

// ---------------------------------------------------------------------------------------------
// The contract's grammar

const FIELD_TYPES = [
  "string",
  "number",
  "int",
  "date",
  "objectId",
  "boolean",
  "array",
  "object",
  "binData",
  "null",
] as const;
type FieldType = (typeof FIELD_TYPES)[number];

type FieldSpec = { name: string; types: FieldType[]; unit: string; required: boolean; meaning: string };
type IndexSpec = { name: string; key: Array<[string, unknown]>; options: string[]; line: number };
type Section = {
  collection: string;
  line: number;
  description: string;
  uniqueKey: string;
  readBy: string;
  writtenBy: string;
  fields: Map<string, FieldSpec>;
  indexes: IndexSpec[];
  example: Document;
};

class ContractFormatError extends Error {
  constructor(section: string | null, line: number, message: string) {
    super(`${section ? `section \`${section}\` ` : ""}(line ${line + 1}): ${message}`);
    this.name = "ContractFormatError";
  }
}

/** The cells of a table row (`\|` is a literal pipe), or null when the line is not a table row. */
function tableCells(line: string): string[] | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith("|") || !trimmed.endsWith("|") || trimmed.length < 2) return null;
  const inner = trimmed.slice(1, -1);
  const cells: string[] = [];
  let current = "";
  for (let k = 0; k < inner.length; k++) {
    const c = inner[k];
    if (c === "\\" && inner[k + 1] === "|") {
      current += "|";
      k++;
    } else if (c === "|") {
      cells.push(current.trim());
      current = "";
    } else current += c;
  }
  cells.push(current.trim());
  return cells;
}

const code = (cell: string): string | null => /^`([^`]+)`$/.exec(cell)?.[1] ?? null;

/** JSON with object keys sorted at every level: what option values are compared by. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

/** An options cell ("—", or items separated by "; ") as comparable strings. */
function parseOptions(cell: string, fail: (message: string) => never): string[] {
  if (cell === "—") return [];
  const items = cell.split("; ").map((s) => s.trim());
  const out: string[] = [];
  for (const item of items) {
    let m: RegExpExecArray | null;
    if (item === "unique" || item === "sparse") out.push(item);
    else if ((m = /^TTL (\d+) s$/.exec(item))) out.push(`expireAfterSeconds=${Number(m[1])}`);
    else if ((m = /^(partial|weights) (\{.*\})$/.exec(item))) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(m[2]);
      } catch {
        fail(`index option "${item}": not valid JSON`);
      }
      out.push(`${m[1] === "partial" ? "partialFilterExpression" : "weights"}=${canonical(parsed)}`);
    } else if ((m = /^language (\S+)$/.exec(item))) out.push(`default_language=${m[1]}`);
    else
      fail(
        `unknown index option "${item}" (expected unique, sparse, TTL <n> s, partial <json>, weights <json>, language <name>, or —)`,
      );
  }
  return out.sort();
}

/** Parses the whole contract; throws a ContractFormatError naming the section and line of the first problem. */
function parseContract(markdown: string): Section[] {
  const lines = markdown.split(/\r?\n/);
  let i = 0;
  let inFence = false;
  // The preamble: anything up to the first collection section.
  for (; i < lines.length; i++) {
    if (lines[i].startsWith("```")) inFence = !inFence;
    if (!inFence && lines[i].startsWith("## `")) break;
  }
  const sections: Section[] = [];
  const seen = new Map<string, number>();
  while (i < lines.length) {
    const heading = /^## `([a-z][a-z0-9_]*(?:\{[A-Za-z]+\})?)`$/.exec(lines[i]);
    if (!heading)
      throw new ContractFormatError(
        null,
        i,
        `expected a collection heading "## \`name\`" (or "## \`prefix_{placeholder}\`"), found "${lines[i]}"`,
      );
    const name = heading[1];
    if (seen.has(name))
      throw new ContractFormatError(
        name,
        i,
        `a second section for the same collection (the first is at line ${seen.get(name)! + 1})`,
      );
    seen.set(name, i);
    let end = i + 1;
    let fence = false;
    for (; end < lines.length; end++) {
      if (lines[end].startsWith("```")) fence = !fence;
      if (!fence && lines[end].startsWith("#")) break;
    }
    if (end < lines.length && !lines[end].startsWith("## "))
      throw new ContractFormatError(name, end, `unexpected heading "${lines[end]}" inside a section`);
    sections.push(parseSection(name, lines, i, end));
    i = end;
  }
  if (sections.length === 0) throw new ContractFormatError(null, 0, "no collection section found");
  return sections;
}

function parseSection(name: string, lines: string[], headingLine: number, end: number): Section {
  let i = headingLine + 1;
  const fail = (message: string, at = i): never => {
    throw new ContractFormatError(name, Math.min(at, lines.length - 1), message);
  };
  const at = (k: number) => (k < end ? lines[k] : "");
  const skipBlank = () => {
    while (i < end && lines[i].trim() === "") i++;
  };

  // 1. One or two sentences.
  skipBlank();
  const description: string[] = [];
  while (i < end && lines[i].trim() !== "" && !lines[i].startsWith("- ")) {
    if (/^(\||\*\*|```)/.test(lines[i]))
      fail("expected one or two sentences describing the collection before the bullets");
    description.push(lines[i].trim());
    i++;
  }
  if (description.length === 0) fail("expected one or two sentences describing the collection");

  // 2. The three bullets, in order.
  skipBlank();
  const bullets: string[] = [];
  for (const label of ["Unique key", "Read by", "Written by"]) {
    const m = new RegExp(`^- \\*\\*${label}:\\*\\* (\\S.*)$`).exec(at(i));
    if (!m) fail(`expected "- **${label}:** …", found "${at(i)}"`);
    bullets.push(m![1].trim());
    i++;
  }

  // 3. The field table.
  skipBlank();
  const header = tableCells(at(i));
  if (header?.join("|") !== "field|type|unit|required|meaning")
    fail(`expected the field table's header "| field | type | unit | required | meaning |", found "${at(i)}"`);
  i++;
  const separator = tableCells(at(i));
  if (separator?.length !== 5 || !separator.every((c) => /^:?-{3,}:?$/.test(c)))
    fail("expected the field table's separator row |---|---|---|---|---|");
  i++;
  const fields = new Map<string, FieldSpec>();
  while (i < end && lines[i].trim() !== "") {
    const cells = tableCells(lines[i]);
    if (!cells) fail(`expected a field row or a blank line after the field table, found "${lines[i]}"`);
    if (cells!.length !== 5) fail(`a field row needs 5 cells, found ${cells!.length} (escape a literal pipe as \\|)`);
    const [fieldCell, typeCell, unit, required, meaning] = cells!;
    const field = code(fieldCell);
    if (!field) fail(`the field cell must be one code span, e.g. \`name\`; found "${fieldCell}"`);
    if (fields.has(field!)) fail(`field \`${field}\` is listed twice`);
    const types = typeCell.split(" or ").map((t) => t.trim());
    for (const type of types)
      if (!(FIELD_TYPES as readonly string[]).includes(type))
        fail(`field \`${field}\`: unknown type "${type}" (types: ${FIELD_TYPES.join(", ")}, joined with " or ")`);
    if (new Set(types).size !== types.length) fail(`field \`${field}\`: a type is repeated in "${typeCell}"`);
    if (!unit) fail(`field \`${field}\`: the unit is empty (write — for none)`);
    if (required !== "yes" && required !== "no")
      fail(`field \`${field}\`: required must be "yes" or "no", found "${required}"`);
    if (!meaning) fail(`field \`${field}\`: the meaning is empty`);
    fields.set(field!, { name: field!, types: types as FieldType[], unit, required: required === "yes", meaning });
    i++;
  }
  if (fields.size === 0) fail("the field table has no rows");
  if (!fields.get("_id")?.required) fail("the field table must list `_id` as required");
  // Every field the unique key names is a field of the table.
  for (const m of bullets[0].matchAll(/`([^`]+)`/g)) {
    if (!fields.has(m[1].split(".")[0]))
      fail(`the unique key names \`${m[1]}\`, which is not in the field table`, headingLine + 1);
  }
  if (!/`[^`]+`/.test(bullets[0])) fail("the unique key must name its field(s) in code spans", headingLine + 1);

  // 4. Indexes.
  skipBlank();
  if (at(i) !== "**Indexes**") fail(`expected "**Indexes**", found "${at(i)}"`);
  i++;
  skipBlank();
  const indexes: IndexSpec[] = [];
  if (at(i) === "None declared besides `_id`.") i++;
  else {
    const indexHeader = tableCells(at(i));
    if (indexHeader?.join("|") !== "name|key|options")
      fail(`expected "| name | key | options |" or "None declared besides \`_id\`.", found "${at(i)}"`);
    i++;
    const indexSeparator = tableCells(at(i));
    if (indexSeparator?.length !== 3 || !indexSeparator.every((c) => /^:?-{3,}:?$/.test(c)))
      fail("expected the index table's separator row |---|---|---|");
    i++;
    while (i < end && lines[i].trim() !== "") {
      const cells = tableCells(lines[i]);
      if (cells?.length !== 3) fail(`an index row needs 3 cells: name, key, options; found "${lines[i]}"`);
      const indexName = code(cells![0]);
      if (!indexName) fail(`the index name must be one code span; found "${cells![0]}"`);
      if (indexes.some((x) => x.name === indexName)) fail(`index \`${indexName}\` is listed twice`);
      const keyText = code(cells![1]);
      let key: unknown;
      try {
        key = keyText ? JSON.parse(keyText) : undefined;
      } catch {
        key = undefined;
      }
      if (!key || typeof key !== "object" || Array.isArray(key) || Object.keys(key).length === 0) {
        fail(
          `index \`${indexName}\`: the key must be a JSON object in a code span, e.g. \`{"a": 1, "b": -1}\`; found "${cells![1]}"`,
        );
      }
      const options = parseOptions(cells![2], (message) => fail(`index \`${indexName}\`: ${message}`));
      indexes.push({ name: indexName!, key: Object.entries(key as Record<string, unknown>), options, line: i });
      i++;
    }
    if (indexes.length === 0) fail('the index table has no rows (write "None declared besides `_id`." instead)');
  }

  // 5. The example.
  skipBlank();
  if (at(i) !== "**Example**") fail(`expected "**Example**", found "${at(i)}"`);
  i++;
  skipBlank();
  if (at(i) !== "```json") fail('expected the example as a "```json" block');
  const fenceStart = i;
  i++;
  const body: string[] = [];
  while (i < end && lines[i] !== "```") body.push(lines[i++]);
  if (i >= end) fail("the example's code block is not closed", fenceStart);
  i++;
  let example: unknown;
  try {
    example = EJSON.parse(body.join("\n"), { relaxed: true });
  } catch (error) {
    fail(`the example is not valid Extended JSON: ${(error as Error).message}`, fenceStart);
  }
  if (!example || typeof example !== "object" || Array.isArray(example))
    fail("the example must be one document", fenceStart);
  skipBlank();
  if (i < end) fail(`unexpected content after the example: "${lines[i]}"`);

  return {
    collection: name,
    line: headingLine + 1,
    description: description.join(" "),
    uniqueKey: bullets[0],
    readBy: bullets[1],
    writtenBy: bullets[2],
    fields,
    indexes,
    example: example as Document,
  };
}

// ---------------------------------------------------------------------------------------------
// Conformance of a document to a section

/** The contract types a value satisfies. */
function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (value === undefined) return ["undefined"];
  if (typeof value === "string") return ["string"];
  if (typeof value === "boolean") return ["boolean"];
  if (typeof value === "number") return Number.isInteger(value) ? ["number", "int"] : ["number"];
  if (typeof value === "bigint") return ["number", "int"];
  if (value instanceof Date) return ["date"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "object") {
    const bsonType = (value as { _bsontype?: string })._bsontype;
    switch (bsonType) {
      case undefined:
        return ["object"];
      case "ObjectId":
        return ["objectId"];
      case "Binary":
        return ["binData"];
      case "Int32":
      case "Long":
        return ["number", "int"];
      case "Double":
      case "Decimal128":
        return ["number"];
      default:
        return [String(bsonType)];
    }
  }
  return [typeof value];
}

/** What is wrong with a document against its section (messages without the document's id). */
function problemsOf(doc: Document, section: Section): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(doc)) {
    const spec = section.fields.get(key);
    if (!spec) {
      problems.push(`field "${key}" (${typesOf(value)[0]}) is not in the contract`);
      continue;
    }
    const actual = typesOf(value);
    if (!spec.types.some((t) => actual.includes(t)))
      problems.push(`field "${key}" is ${actual[0]}, the contract says ${spec.types.join(" or ")}`);
  }
  for (const spec of section.fields.values()) {
    if (spec.required && !(spec.name in doc)) problems.push(`required field "${spec.name}" is missing`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The code's side

/** MongoDB's name for an index declared without one: field_direction pairs joined with "_". */
function defaultIndexName(key: Array<[string, unknown]>): string {
  return key.map(([field, kind]) => `${field}_${String(kind)}`).join("_");
}

function declaredKey(declaration: IndexDeclaration): Array<[string, unknown]> {
  const key: unknown = declaration.key;
  if (key instanceof Map) return [...key.entries()] as Array<[string, unknown]>;
  if (key && typeof key === "object" && !Array.isArray(key)) return Object.entries(key as Record<string, unknown>);
  throw new Error(
    `${declaration.collection}: index key ${JSON.stringify(key)} is not an object; the contract test reads object keys only`,
  );
}

function declaredOptions(declaration: IndexDeclaration): string[] {
  const out: string[] = [];
  for (const [option, value] of Object.entries(declaration.options ?? {})) {
    switch (option) {
      case "name":
        break;
      case "unique":
      case "sparse":
        if (value) out.push(option);
        break;
      case "expireAfterSeconds":
        out.push(`expireAfterSeconds=${Number(value)}`);
        break;
      case "partialFilterExpression":
      case "weights":
        out.push(`${option}=${canonical(value)}`);
        break;
      case "default_language":
        out.push(`default_language=${String(value)}`);
        break;
      default:
        throw new Error(
          `${declaration.collection}.${declaration.options?.name ?? "?"}: index option "${option}" has no notation in the data contract (docs/data-contract.md); add one to the contract's grammar and to this test`,
        );
    }
  }
  return out.sort();
}

const declaredIndexes = allIndexes.map((d) => {
  const key = declaredKey(d);
  return { collection: d.collection, name: d.options?.name ?? defaultIndexName(key), key, options: declaredOptions(d) };
});

/**
 * Collection names the models export (`UPPER_CASE = "lower_case"` string constants), with where they come from. A
 * value ending in "_" is the prefix of a family of collections (`prefix_{placeholder}` in the contract).
 */
const modelModules = import.meta.glob<Record<string, unknown>>("../app/models/*.server.ts", { eager: true });
const modelCollections = new Map<string, string>();
for (const [file, exports] of Object.entries(modelModules)) {
  for (const [name, value] of Object.entries(exports)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(name) || typeof value !== "string" || !/^[a-z][a-z0-9_]*$/.test(value)) continue;
    if (NOT_COLLECTIONS[name] === value) continue;
    if (!modelCollections.has(value)) modelCollections.set(value, `${path.basename(file)} ${name}`);
  }
}
/** What a section may name: a model's collection, an indexed one, or the seed script's record. */
const namedCollections = new Set([...modelCollections.keys(), ...allIndexes.map((d) => d.collection), SEED_STATE]);

/** A family section's prefix (`import_staging_{fileId}` → `import_staging_`), or null for a plain name. */
const familyPrefix = (section: string): string | null => /^(.*)\{[A-Za-z]+\}$/.exec(section)?.[1] ?? null;
/** Whether a section describes a collection name: the same name, or a family whose prefix it starts with. */
const describes = (section: string, collection: string): boolean => {
  const prefix = familyPrefix(section);
  return prefix === null ? section === collection : collection.startsWith(prefix) && collection.length > prefix.length;
};
/** Whether a section is named by the code: a named collection, or a family whose prefix a model exports. */
const sectionIsNamed = (section: string): boolean => {
  const prefix = familyPrefix(section);
  return prefix === null ? namedCollections.has(section) : namedCollections.has(prefix);
};

let parsed: { sections: Section[] } | { error: Error } | null = null;
function contract(): Section[] {
  if (!parsed) {
    try {
      const sections = CONTRACT_FILES.flatMap((file) => {
        try {
          return parseContract(readFileSync(path.resolve(__dirname, "..", file), "utf8"));
        } catch (error) {
          throw new Error(`${file}, ${(error as Error).message}`);
        }
      });
      const names = sections.map((s) => s.collection);
      const twice = names.find((n, i) => names.indexOf(n) !== i);
      if (twice) throw new Error(`the collection \`${twice}\` has a section in more than one file of the contract`);
      parsed = { sections };
    } catch (error) {
      parsed = { error: error as Error };
    }
  }
  if ("error" in parsed) throw parsed.error;
  return parsed.sections;
}
const sectionOf = (name: string) =>
  contract().find((s) => s.collection === name) ?? contract().find((s) => describes(s.collection, name));

// ---------------------------------------------------------------------------------------------

describe("the contract's format", () => {
  it("parses: every section has its sentences, bullets, field table, indexes and example", () => {
    const sections = contract();
    expect(sections.length).toBeGreaterThan(0);
  });

  const valid = [
    "# Title",
    "",
    "## `things`",
    "Things.",
    "- **Unique key:** `_id`",
    "- **Read by:** `/a`.",
    "- **Written by:** the seed.",
    "",
    "| field | type | unit | required | meaning |",
    "|---|---|---|---|---|",
    "| `_id` | objectId | — | yes | Id. |",
    "| `at` | date or null | — | no | When. |",
    "",
    "**Indexes**",
    "",
    "| name | key | options |",
    "|---|---|---|",
    '| `at_ttl` | `{"at": 1}` | TTL 60 s; unique |',
    "",
    "**Example**",
    "",
    "```json",
    '{"_id": {"$oid": "69a5b0c0a1b2c3d4e5f60718"}, "at": null}',
    "```",
  ];
  const broken = (from: string, to: string) => valid.map((l) => l.split(from).join(to)).join("\n");

  it("reads a well-formed section", () => {
    const [section] = parseContract(valid.join("\n"));
    expect(section.collection).toBe("things");
    expect(section.fields.get("at")).toMatchObject({ types: ["date", "null"], required: false });
    expect(section.indexes).toEqual([
      { name: "at_ttl", key: [["at", 1]], options: ["expireAfterSeconds=60", "unique"], line: 17 },
    ]);
  });

  it.each([
    ["a missing bullet", () => broken("- **Read by:** `/a`.", ""), /section `things`.*"- \*\*Read by:\*\* …"/],
    ["an unknown type", () => broken("date or null", "timestamp"), /section `things`.*unknown type "timestamp"/],
    ["a bad required cell", () => broken("| no |", "| maybe |"), /section `things`.*required must be "yes" or "no"/],
    ["a row with a cell too many", () => broken("| Id. |", "| Id. | extra |"), /section `things`.*needs 5 cells/],
    ["an unknown index option", () => broken("TTL 60 s", "TTL sixty"), /section `things`.*unknown index option/],
    [
      "an index key that is not JSON",
      () => broken('`{"at": 1}`', "`at: 1`"),
      /section `things`.*key must be a JSON object/,
    ],
    [
      "an example that is not JSON",
      () => broken('"at": null}', '"at": nul}'),
      /section `things`.*not valid Extended JSON/,
    ],
    ["no example", () => valid.slice(0, 19).join("\n"), /section `things`.*"\*\*Example\*\*"/],
    [
      "a unique key naming no listed field",
      () => broken("- **Unique key:** `_id`", "- **Unique key:** `sku`"),
      /section `things`.*unique key names `sku`/,
    ],
    ["a duplicate section", () => [...valid, "", ...valid.slice(2)].join("\n"), /section `things`.*second section/],
    ["text after the example", () => [...valid, "stray"].join("\n"), /section `things`.*unexpected content/],
  ])("refuses %s, naming the section", (_label, make, message) => {
    expect(() => parseContract(make())).toThrow(message);
  });
});

describe("the contract and the declared indexes", () => {
  it("lists every declared index with its key, name and options", () => {
    const problems: string[] = [];
    for (const declared of declaredIndexes) {
      const section = sectionOf(declared.collection);
      if (!section) {
        problems.push(`${declared.collection}: no section, but the models declare index ${declared.name}`);
        continue;
      }
      const listed = section.indexes.find((x) => x.name === declared.name);
      if (!listed) {
        problems.push(
          `${declared.collection}.${declared.name}: declared (key ${JSON.stringify(Object.fromEntries(declared.key))}), not in the contract`,
        );
        continue;
      }
      if (JSON.stringify(listed.key) !== JSON.stringify(declared.key)) {
        problems.push(
          `${declared.collection}.${declared.name}: the contract's key ${JSON.stringify(Object.fromEntries(listed.key))} differs from the declared ${JSON.stringify(Object.fromEntries(declared.key))} (order counts)`,
        );
      }
      if (listed.options.join(";") !== declared.options.join(";")) {
        problems.push(
          `${declared.collection}.${declared.name}: the contract's options [${listed.options.join(", ")}] differ from the declared [${declared.options.join(", ")}]`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it("lists no index the models do not declare", () => {
    const declared = new Set(declaredIndexes.map((d) => `${d.collection}.${d.name}`));
    const extra = contract().flatMap((s) =>
      s.indexes
        .filter((x) => !declared.has(`${s.collection}.${x.name}`))
        .map((x) => `${s.collection}.${x.name} (line ${x.line + 1})`),
    );
    expect(extra, "indexes in the data contract that no model declares").toEqual([]);
  });
});

describe("the contract and the seeded database", () => {
  const testDb = useTestDatabase();
  let db: Db;
  let seeded: string[] = [];

  beforeAll(async () => {
    db = await testDb.db();
    await runSeed(db, { scale: 0.1, ifEmpty: false, referenceDate: new Date("2026-03-01T00:00:00Z") }, () => undefined);
    const names = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((n) => !n.startsWith("system."));
    const counts = await Promise.all(names.map((n) => db.collection(n).estimatedDocumentCount()));
    seeded = names.filter((_, i) => counts[i] > 0).sort();
  }, 180_000);

  it("has a section for every indexed, model-named or seeded collection", () => {
    const sections = contract().map((s) => s.collection);
    const has = (name: string) => sections.includes(name);
    const missing: string[] = [];
    for (const name of new Set(allIndexes.map((d) => d.collection)))
      if (!has(name)) missing.push(`${name} (the models declare indexes on it)`);
    for (const [name, where] of modelCollections) {
      const found = name.endsWith("_") ? sections.some((s) => familyPrefix(s) === name) : has(name);
      if (!found)
        missing.push(
          `${name.endsWith("_") ? `${name}{…}` : name} (${where}; if this constant is not a collection, add it to NOT_COLLECTIONS in this test)`,
        );
    }
    for (const name of seeded)
      if (!sections.some((s) => describes(s, name))) missing.push(`${name} (it holds documents after the seed)`);
    expect(seeded.length).toBeGreaterThan(10);
    expect([...new Set(missing)], "collections without a section in the data contract").toEqual([]);
  });

  it("has sections only for collections the code names", () => {
    const unknown = contract()
      .filter((s) => !sectionIsNamed(s.collection))
      .map((s) => `${s.collection} (line ${s.line})`);
    expect(unknown, "sections for collections no model names").toEqual([]);
  });

  it("describes every seeded document: only listed fields, every required one, the listed types", async () => {
    const problems: string[] = [];
    for (const name of seeded) {
      const section = sectionOf(name);
      if (!section) continue; // reported by the sections test
      const found = new Map<string, { count: number; first: string }>();
      let read = 0;
      for await (const doc of db.collection(name).find({}, { limit: SAMPLE })) {
        read++;
        for (const problem of problemsOf(doc, section)) {
          const entry = found.get(problem);
          if (entry) entry.count++;
          else found.set(problem, { count: 1, first: EJSON.stringify(doc._id, { relaxed: true }) });
        }
      }
      expect(read, name).toBeGreaterThan(0);
      [...found].slice(0, MAX_PROBLEMS).forEach(([problem, { count, first }]) => {
        problems.push(`${name}: ${problem} (${count} of ${read} documents, e.g. _id ${first})`);
      });
      if (found.size > MAX_PROBLEMS) problems.push(`${name}: ${found.size - MAX_PROBLEMS} more kinds of problem`);
    }
    expect(problems).toEqual([]);
  });
});

describe("the contract's examples", () => {
  it("every example conforms to its own table", () => {
    const problems = contract().flatMap((s) => problemsOf(s.example, s).map((p) => `${s.collection} (example): ${p}`));
    expect(problems).toEqual([]);
  });
});
