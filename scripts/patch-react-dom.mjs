// Corrects React 18.3.1's streaming server renderer in node_modules; run by npm after every install (the root
// package's `postinstall`, which `npm ci` runs too). Plain Node, no dependency: the Docker image's production
// install runs it with dev dependencies omitted. docs/decisions.md, "React's streaming renderer, corrected at
// install".
//
// The renderer fills 2,048-byte views; when a string's next character (two or three bytes in UTF-8) does not fit
// in what is left of a view, it sends the whole view, the unwritten zero bytes with it. Only the bytes written
// belong in the page. React fixed this after 18.3 and no 18.x release carries the fix; React is pinned at 18.3.1.
//
// Each file must hold the faulty statement (patched) or the corrected one (left alone) exactly once. Anything else,
// or another build of react-dom that encodes into its views, stops the install: an upgraded React must be
// looked at, not skipped.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const FIXES = {
  "react-dom-server.node.development.js": {
    faulty: "if (read < stringChunk.length) {\n    writeToDestination(destination, currentView);\n",
    fixed:
      "if (read < stringChunk.length) {\n    writeToDestination(destination, currentView.subarray(0, writtenBytes));\n",
  },
  "react-dom-server.node.production.min.js": {
    faulty: "d<b.length&&(t(a,k),k=new Uint8Array(2048)",
    fixed: "d<b.length&&(t(a,k.subarray(0,l)),k=new Uint8Array(2048)",
  },
};

const count = (text, part) => text.split(part).length - 1;

function fail(message) {
  console.error(`patch-react-dom: ${message}`);
  process.exit(1);
}

/** The react-dom the project resolves (from the repository's root, whatever the current directory). */
function reactDomDir() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  try {
    return path.dirname(createRequire(path.join(root, "package.json")).resolve("react-dom/package.json"));
  } catch {
    return fail("react-dom is not installed, so its server renderer could not be checked");
  }
}

const dir = reactDomDir();
const version = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version;
const cjs = path.join(dir, "cjs");
// Every build that encodes strings into a view is one this script must know.
const encoding = readdirSync(cjs).filter((name) => readFileSync(path.join(cjs, name), "utf8").includes("encodeInto"));
const unknown = encoding.filter((name) => !(name in FIXES));
if (unknown.length > 0) fail(`react-dom ${version}: ${unknown.join(", ")} encode into views; check them for the fix`);

for (const [name, { faulty, fixed }] of Object.entries(FIXES)) {
  const file = path.join(cjs, name);
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    fail(`react-dom ${version}: ${file} is missing`);
  }
  const [faults, fixes] = [count(text, faulty), count(text, fixed)];
  if (faults === 0 && fixes === 1) continue;
  if (faults !== 1 || fixes !== 0)
    fail(`react-dom ${version}: ${name} has neither the known faulty statement nor its fix (${faults}, ${fixes})`);
  writeFileSync(file, text.replace(faulty, fixed));
  console.log(`patch-react-dom: react-dom ${version} ${name}: a view is sent only as far as it was written`);
}
