import { parse as parseFilter } from "scim2-parse-filter";

/**
 * The attributes a SCIM PATCH may reach (RFC 7644 §3.5.2, §3.12): an allow-list per resource. Every operation's path,
 * and every key of a path-less operation's value object, is read against it and rewritten in its canonical spelling;
 * every value is copied into a fresh object holding only the allowed sub-attributes. What reaches scim-patch is only
 * what this module built, so no `__proto__`, `constructor` or `prototype` (nor any other name) ever becomes a property
 * path in the process. Pure.
 */

type Kind = "string" | "boolean" | "complex" | "multi";

type Attribute = {
  name: string;
  kind: Kind;
  /** The sub-attributes of a complex or multi-valued attribute, and the kind of each (strings unless said). */
  subs?: Record<string, "string" | "boolean">;
  /** The sub-attributes a filter of a multi-valued attribute may test (`emails[type eq "work"]`). */
  filterable?: readonly string[];
};

export type ResourceAttributes = { schema: string; attributes: readonly Attribute[] };

const NAME_SUBS = {
  formatted: "string",
  familyName: "string",
  givenName: "string",
  middleName: "string",
  honorificPrefix: "string",
  honorificSuffix: "string",
} as const;

export const USER_PATCH_ATTRIBUTES: ResourceAttributes = {
  schema: "urn:ietf:params:scim:schemas:core:2.0:User",
  attributes: [
    { name: "active", kind: "boolean" },
    { name: "userName", kind: "string" },
    { name: "displayName", kind: "string" },
    { name: "name", kind: "complex", subs: NAME_SUBS },
    {
      name: "emails",
      kind: "multi",
      subs: { value: "string", type: "string", primary: "boolean", display: "string" },
      filterable: ["value", "type", "primary"],
    },
  ],
};

export const GROUP_PATCH_ATTRIBUTES: ResourceAttributes = {
  schema: "urn:ietf:params:scim:schemas:core:2.0:Group",
  attributes: [
    // Known and read-only: the group's own answer refuses a change of it (mutability).
    { name: "displayName", kind: "string" },
    {
      name: "members",
      kind: "multi",
      subs: { value: "string", display: "string", $ref: "string", type: "string" },
      filterable: ["value"],
    },
  ],
};

/** The most entries a multi-valued value may hold (a group's members: the groups' own bound). */
const MULTI_MAX = 10_000;
const STRING_MAX = 1_000;

export type PatchRefusal = { scimType: "invalidPath" | "invalidValue"; detail: string };
type Operation = { op: string; path?: string; value?: unknown };

class Refused extends Error {
  constructor(readonly refusal: PatchRefusal) {
    super(refusal.detail);
  }
}

const invalidPath = (path: string): never => {
  throw new Refused({ scimType: "invalidPath", detail: `Atributo não suportado: ${path.slice(0, 100)}.` });
};
const invalidValue = (path: string): never => {
  throw new Refused({ scimType: "invalidValue", detail: `Valor inválido para ${path.slice(0, 100)}.` });
};

/** The allowed name matching `name` case-insensitively (SCIM names are), looked up without touching a prototype. */
function canonical(names: Iterable<string>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const candidate of names) if (candidate.toLowerCase() === wanted) return candidate;
  return undefined;
}

const PATH_RE = /^([A-Za-z][A-Za-z0-9_-]{0,63})(?:\[([^\]]{1,300})\])?(?:\.([A-Za-z$][A-Za-z0-9_-]{0,63}))?$/;

type Target = { path: string; attribute: Attribute; sub?: string };

/** A path of `resource` in its canonical spelling, or a refusal: `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`. */
function readPath(resource: ResourceAttributes, raw: string): Target {
  const prefix = `${resource.schema}:`;
  const path = raw.toLowerCase().startsWith(prefix.toLowerCase()) ? raw.slice(prefix.length) : raw;
  const match = PATH_RE.exec(path);
  if (!match) return invalidPath(raw);
  const [, attrName, filterText, subName] = match;
  const attribute = resource.attributes.find((a) => a.name === canonical([a.name], attrName));
  if (!attribute) return invalidPath(raw);
  const sub = subName === undefined ? undefined : canonical(Object.keys(attribute.subs ?? {}), subName);
  if (subName !== undefined && (sub === undefined || attribute.kind === "string" || attribute.kind === "boolean"))
    return invalidPath(raw);
  let filter = "";
  if (filterText !== undefined) {
    if (attribute.kind !== "multi") return invalidPath(raw);
    let ast: ReturnType<typeof parseFilter>;
    try {
      ast = parseFilter(filterText);
    } catch {
      return invalidPath(raw);
    }
    const tested =
      ast.op === "eq" && "attrPath" in ast ? canonical(attribute.filterable ?? [], ast.attrPath) : undefined;
    const value = ast.op === "eq" && "compValue" in ast ? ast.compValue : null;
    if (!tested || (typeof value !== "string" && typeof value !== "boolean")) return invalidPath(raw);
    filter = `[${tested} eq ${JSON.stringify(value)}]`;
  }
  return { path: `${attribute.name}${filter}${sub ? `.${sub}` : ""}`, attribute, sub };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function scalar(kind: "string" | "boolean", value: unknown, path: string): string | boolean {
  if (
    kind === "boolean" &&
    (typeof value === "boolean" || (typeof value === "string" && /^(true|false)$/i.test(value)))
  )
    return value;
  if (kind === "string" && typeof value === "string" && value.length <= STRING_MAX) return value;
  return invalidValue(path);
}

/** A copy of an object holding only `subs`' keys (canonical), each checked; any other key is refused. */
function subObject(subs: Record<string, "string" | "boolean">, value: unknown, path: string): Record<string, unknown> {
  if (!isPlainObject(value)) return invalidValue(path);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const sub = canonical(Object.keys(subs), key);
    if (sub === undefined) return invalidPath(`${path}.${key}`);
    copy[sub] = scalar(subs[sub], value[key], `${path}.${sub}`);
  }
  return copy;
}

/** The value for `target`, rebuilt from what the allow-list knows. */
function readValue(target: Target, value: unknown): unknown {
  const { attribute, sub, path } = target;
  if (attribute.kind === "string" || attribute.kind === "boolean") return scalar(attribute.kind, value, path);
  const subs = attribute.subs ?? {};
  if (sub !== undefined) return scalar(subs[sub], value, path);
  if (attribute.kind === "complex") return subObject(subs, value, path);
  if (Array.isArray(value)) {
    if (value.length > MULTI_MAX) return invalidValue(path);
    return value.map((entry) => subObject(subs, entry, path));
  }
  return subObject(subs, value, path);
}

function readOperation(resource: ResourceAttributes, operation: Operation): Operation {
  if (operation.path !== undefined) {
    const target = readPath(resource, operation.path);
    return operation.value === undefined
      ? { op: operation.op, path: target.path }
      : { op: operation.op, path: target.path, value: readValue(target, operation.value) };
  }
  // No path: the value is an object of attribute paths (RFC 7644 §3.5.2.1/.3), each read as a path.
  if (!isPlainObject(operation.value)) return invalidValue("value");
  const value: Record<string, unknown> = {};
  for (const key of Object.keys(operation.value)) {
    const target = readPath(resource, key);
    value[target.path] = readValue(target, operation.value[key]);
  }
  return { op: operation.op, value };
}

/**
 * `operations` rebuilt from the allow-list of `resource`, or the first refusal: 400 invalidPath for an attribute (or
 * sub-attribute, or filter) the portal does not keep, invalidValue for a value of the wrong shape.
 */
export function allowListed<T extends Operation>(
  resource: ResourceAttributes,
  operations: readonly T[],
): { list: Operation[] } | { refusal: PatchRefusal } {
  try {
    return { list: operations.map((operation) => readOperation(resource, operation)) };
  } catch (error) {
    if (error instanceof Refused) return { refusal: error.refusal };
    throw error;
  }
}
