/**
 * `npx tsx scripts/rooms.ts [--list]`: how many modules ("rooms") a reader enters to follow a file from `portal
 * import` to the database, and how many of the moves between them climb back up a floor.
 *
 * Method. The call graph is read with TypeScript's checker from `importCommand` (server/cli-import.ts): every call and
 * `new` in a function's body (its closures included) resolved to the project function, method or constructor it
 * names (a call through an interface or a type of methods: the methods of that name of the project's classes the
 * receiver's type admits). That graph is then restricted to the functions a real run calls: the script imports one
 * file of each kind below with `importCommand` (the operator's rights, an in-memory embedded database, a temporary
 * DATA_DIR) and asks V8 which functions ran (precise coverage, call counts), so a branch the file never takes adds no
 * room. Rooms: the modules of app/ and server/ the walk from `importCommand` enters (depth first, calls in source
 * order, each module entered once). A move into a new room climbs when the callee's folder is not the caller's folder
 * or one below it (app/platform/import/datasets/x.ts → app/models/y.ts climbs; app/platform/import/x.ts → its
 * datasets/ does not).
 * Modules that ran but that no named call reaches (a template's `toDoc`, called through the registry) are rooms too,
 * listed apart: the graph cannot say from where they were entered, so their moves are not classified. A second figure
 * keeps only the chain to the database: the functions that ran from which a MongoDB write (insert, update, replace,
 * delete, bulkWrite, findOneAnd*) is reached through functions that ran.
 */
import fs from "node:fs/promises";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const list = process.argv.includes("--list");
const ENTRY_FILE = "server/cli-import.ts";
const ENTRY = "importCommand";

const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");
const isProject = (file: string) => /^(app|server)\//.test(file);

// ---- the static call graph from importCommand ----

type Fn = { id: string; file: string; name: string; label: string };
const config = ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile);
const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
const program = ts.createProgram([path.join(root, ENTRY_FILE)], options);
const checker = program.getTypeChecker();
const fns = new Map<string, Fn>();
const calls = new Map<string, string[]>();
/** The functions that call a MongoDB write themselves. */
const writers = new Set<string>();
const WRITES = new Set([
  "insertOne",
  "insertMany",
  "updateOne",
  "updateMany",
  "replaceOne",
  "deleteOne",
  "deleteMany",
  "bulkWrite",
  "findOneAndUpdate",
  "findOneAndReplace",
  "findOneAndDelete",
]);

function isMongoWrite(node: ts.CallExpression): boolean {
  if (!ts.isPropertyAccessExpression(node.expression) || !WRITES.has(node.expression.name.text)) return false;
  const symbol = checker.getSymbolAtLocation(node.expression.name);
  return !!symbol?.declarations?.some((d) => rel(d.getSourceFile().fileName).includes("node_modules/mongodb/"));
}

const identifierOf = (n: ts.Node | undefined): string | undefined => {
  const name = (n as { name?: ts.Node } | undefined)?.name;
  return name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) ? name.text : undefined;
};

/** The function-like declaration a symbol names, when it is one in app/ or server/. */
function declarationOf(symbol: ts.Symbol | undefined): ts.Node | null {
  if (!symbol) return null;
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  for (const decl of target.declarations ?? []) {
    if (!isProject(rel(decl.getSourceFile().fileName))) continue;
    if (
      ts.isFunctionDeclaration(decl) ||
      ts.isMethodDeclaration(decl) ||
      ts.isConstructorDeclaration(decl) ||
      ts.isGetAccessorDeclaration(decl)
    )
      return decl;
    const init = (decl as { initializer?: ts.Node }).initializer;
    if (
      (ts.isVariableDeclaration(decl) || ts.isPropertyAssignment(decl) || ts.isPropertyDeclaration(decl)) &&
      init &&
      (ts.isArrowFunction(init) || ts.isFunctionExpression(init))
    )
      return decl;
    if (ts.isClassDeclaration(decl)) return decl.members.find(ts.isConstructorDeclaration) ?? null;
  }
  return null;
}

/** V8's name for a function: a constructor by its class, a getter as "get x". */
function v8Name(decl: ts.Node): string {
  if (ts.isConstructorDeclaration(decl)) return identifierOf(decl.parent) ?? "";
  if (ts.isGetAccessorDeclaration(decl)) return `get ${identifierOf(decl)}`;
  return identifierOf(decl) ?? "";
}

/** The project's classes, for calls through an interface or a type of methods. */
const classes = program
  .getSourceFiles()
  .filter((f) => isProject(rel(f.fileName)) && !f.isDeclarationFile)
  .flatMap((f) => f.statements.filter(ts.isClassDeclaration))
  .filter((c) => c.name);

/**
 * A call through a method of an interface or type (`loader.accept()` where `loader: RowLoader`): the methods of that
 * name of every project class the receiver's type admits.
 */
function implementations(node: ts.CallExpression | ts.NewExpression, symbol: ts.Symbol | undefined): ts.Node[] {
  if (!ts.isPropertyAccessExpression(node.expression) || !symbol?.declarations?.length) return [];
  const signatures = symbol.declarations.every(
    (d) => (ts.isMethodSignature(d) || ts.isPropertySignature(d)) && isProject(rel(d.getSourceFile().fileName)),
  );
  if (!signatures) return [];
  const receiver = checker.getNonNullableType(checker.getTypeAtLocation(node.expression.expression));
  const name = node.expression.name.text;
  return classes.flatMap((c) => {
    const method = c.members.find((m) => ts.isMethodDeclaration(m) && identifierOf(m) === name);
    if (!method) return [];
    const instance = checker.getDeclaredTypeOfSymbol(checker.getSymbolAtLocation(c.name!)!);
    return checker.isTypeAssignableTo(instance, receiver) ? [method] : [];
  });
}

function visit(decl: ts.Node): string {
  const file = rel(decl.getSourceFile().fileName);
  const id = `${file}#${decl.pos}`;
  if (fns.has(id)) return id;
  const owner = ts.isClassLike(decl.parent) ? `${identifierOf(decl.parent)}.` : "";
  fns.set(id, { id, file, name: v8Name(decl), label: `${owner}${identifierOf(decl) ?? "constructor"}` });
  const out: string[] = [];
  calls.set(id, out);
  const walk = (node: ts.Node) => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      if (ts.isCallExpression(node) && isMongoWrite(node)) writers.add(id);
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      const symbol = checker.getSymbolAtLocation(callee);
      const target = declarationOf(symbol);
      if (target) out.push(visit(target));
      else for (const method of implementations(node, symbol)) out.push(visit(method));
    }
    ts.forEachChild(node, walk);
  };
  const body = (decl as { initializer?: ts.Node }).initializer ?? (decl as { body?: ts.Node }).body;
  if (body) walk(body);
  // A constructor also runs its class's property initialisers.
  if (ts.isConstructorDeclaration(decl))
    for (const member of decl.parent.members)
      if (ts.isPropertyDeclaration(member) && member.initializer) walk(member.initializer);
  return id;
}

const entrySource = program.getSourceFile(path.join(root, ENTRY_FILE))!;
const entryDecl = entrySource.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === ENTRY);
if (!entryDecl) throw new Error(`${ENTRY_FILE}: no function ${ENTRY}`);
const start = visit(entryDecl);

// ---- one real run per file kind, with V8's precise coverage ----

process.env.DATA_DIR = await fs.mkdtemp(path.join(os.tmpdir(), "jp-rooms-"));
const { startEmbeddedMongo } = await import("embedded-mongo");
const server = await startEmbeddedMongo();
process.env.MONGODB_URI = server.uri;
process.env.DATABASE_NAME = "rooms";
const { resetConfigForTests } = await import("~/config.server");
resetConfigForTests();
const { importCommand } = await import("../server/cli-import");
const { closeDb } = await import("~/db.server");
const { registerPortalDatasets } = await import("~/datasets.server");
const { templateById } = await import("~/platform/import/registry");
registerPortalDatasets();

/** A CSV of the template's example row with one cell changed (the example row itself is skipped by every import). */
async function csvOf(id: string, changed: Record<string, string>): Promise<string> {
  const info = templateById(id)!;
  const lines = [
    info.columns.map((c) => c.name).join(";"),
    info.columns.map((c) => changed[c.name] ?? String(c.example)).join(";"),
  ];
  const file = path.join(process.env.DATA_DIR!, `${id}.csv`);
  await fs.writeFile(file, lines.join("\n"));
  return file;
}

const KINDS = [
  { title: "a spec-001 dataset (planning_quantity CSV)", file: () => csvOf("planning_quantity", { valor: "1300" }) },
  { title: "spec 000 master data (product CSV)", file: () => csvOf("product", { material_description: "Batom" }) },
];

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

type Coverage = {
  result: Array<{ url: string; functions: Array<{ functionName: string; ranges: { count: number }[] }> }>;
};

async function measure(kind: (typeof KINDS)[number]): Promise<void> {
  const file = await kind.file();
  await session.post("Profiler.takePreciseCoverage"); // resets the counters: only the import below counts
  const { code } = await importCommand([file], () => undefined, { progressIntervalMs: 50 });
  const { result } = (await session.post("Profiler.takePreciseCoverage")) as Coverage;
  if (code !== 0) throw new Error(`${kind.title}: the import did not end OK`);
  const ran = new Map<string, Set<string>>();
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const file = rel(new URL(script.url).pathname);
    if (!isProject(file)) continue;
    const names = script.functions.filter((f) => f.ranges[0].count > 0).map((f) => f.functionName);
    if (names.length > 0) ran.set(file, new Set(names));
  }
  const called = (id: string) => {
    const fn = fns.get(id)!;
    return fn.id === start || !!ran.get(fn.file)?.has(fn.name);
  };

  // The chain to the database: the functions that ran and from which a write is reached through functions that ran.
  const toWrite = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, out] of calls)
      if (!toWrite.has(id) && called(id) && (writers.has(id) || out.some((c) => toWrite.has(c)))) {
        toWrite.add(id);
        grew = true;
      }
  }
  console.log(`\n${kind.title}`);
  const all = walk(called);
  const unnamed = [...ran.keys()].filter((f) => !all.rooms.includes(f) && f !== "scripts/rooms.ts").sort();
  report("every module the run enters", all, unnamed);
  report(
    "the chain to a database write",
    walk((id) => toWrite.has(id)),
    [],
  );
}

type Walk = { rooms: string[]; moves: Array<{ from: string; to: string; via: string; climb: boolean }> };

/** The walk from importCommand through the functions `keep` admits, each module entered once. */
function walk(keep: (id: string) => boolean): Walk {
  const rooms: string[] = [];
  const moves: Walk["moves"] = [];
  const seen = new Set<string>();
  const folder = (file: string) => path.posix.dirname(file);
  const visit = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const { file } = fns.get(id)!;
    if (!rooms.includes(file)) rooms.push(file);
    for (const next of calls.get(id) ?? []) {
      if (!keep(next)) continue;
      const to = fns.get(next)!.file;
      if (to !== file && !rooms.includes(to)) {
        const climb = !(folder(to) === folder(file) || folder(to).startsWith(`${folder(file)}/`));
        moves.push({ from: file, to, via: fns.get(next)!.label, climb });
      }
      visit(next);
    }
  };
  visit(start);
  return { rooms, moves };
}

function report(title: string, { rooms, moves }: Walk, unnamed: string[]): void {
  const climbs = moves.filter((m) => m.climb).length;
  const values = unnamed.length > 0 ? ` (${rooms.length} by named calls, ${unnamed.length} through values)` : "";
  console.log(`  ${title}: rooms ${rooms.length + unnamed.length}${values}; climbs ${climbs} of ${moves.length} moves`);
  if (!list) return;
  for (const m of moves) console.log(`    ${m.climb ? "↑" : " "} ${m.from} → ${m.to}  (${m.via})`);
  for (const f of unnamed) console.log(`    ? ${f}  (through a value)`);
}

try {
  for (const kind of KINDS) await measure(kind);
} finally {
  session.disconnect();
  await closeDb();
  await server.stop();
  await fs.rm(process.env.DATA_DIR!, { recursive: true, force: true });
}
