// Every process of the portal runs with --disable-proto=throw (docs/decisions.md, "No __proto__ in any process"):
// reading or writing `obj.__proto__` throws, so a library handed a hostile key path cannot reach Object.prototype.
// Three installed dependencies set a prototype through that accessor as they run; each such statement is rewritten
// to `Object.setPrototypeOf` with the same arguments, which does the same and needs no accessor. Run by npm after
// every install (the root package's `postinstall`, beside patch-react-dom.mjs). Plain Node, no dependency.
//
// Each statement must be found exactly once (rewritten) or its rewrite exactly once (left alone); anything else stops
// the install, so an upgraded dependency is looked at, not skipped.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * package → file inside it → [statement, its rewrite] pairs. `?` after a package marks a test-only dependency,
 * absent from a production install (`npm ci --omit=dev`), where it is not checked.
 */
const REWRITES = {
  // The browser tests' driver: the colours of its error messages (a failed wait formats its call log with them).
  "playwright-core?": {
    "lib/utilsBundle.js": [["builder.__proto__ = proto;", "Object.setPrototypeOf(builder, proto);"]],
  },
  "react-dom": {
    // The legacy server renderer's class helper (renderToString and renderToNodeStream come from this build).
    "cjs/react-dom-server-legacy.node.development.js": [
      ["subClass.__proto__ = superClass;", "Object.setPrototypeOf(subClass, superClass);"],
    ],
    "cjs/react-dom-server-legacy.node.production.min.js": [["a.__proto__=b}", "Object.setPrototypeOf(a,b)}"]],
  },
  mammoth: {
    // Its promise subclass (DOCX reading: the document viewer and the import of documents).
    "lib/promises.js": [
      ["promise.__proto__ = ExternalPromise.prototype;", "Object.setPrototypeOf(promise, ExternalPromise.prototype);"],
      ["ExternalPromise.__proto__ = Promise;", "Object.setPrototypeOf(ExternalPromise, Promise);"],
      [
        "ExternalPromise.prototype.__proto__ = Promise.prototype;",
        "Object.setPrototypeOf(ExternalPromise.prototype, Promise.prototype);",
      ],
    ],
  },
};

const count = (text, part) => text.split(part).length - 1;

function fail(message) {
  console.error(`patch-proto-setters: ${message}`);
  process.exit(1);
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const requireFromRoot = createRequire(path.join(root, "package.json"));

for (const [key, files] of Object.entries(REWRITES)) {
  const pkg = key.replace(/\?$/, "");
  let dir;
  try {
    dir = path.dirname(requireFromRoot.resolve(`${pkg}/package.json`));
  } catch {
    if (key.endsWith("?")) continue;
    fail(`${pkg} is not installed, so its use of __proto__ could not be checked`);
  }
  const version = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version;
  for (const [name, pairs] of Object.entries(files)) {
    const file = path.join(dir, name);
    let text;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      fail(`${pkg} ${version}: ${name} is missing`);
    }
    let changed = false;
    for (const [statement, rewrite] of pairs) {
      const [found, done] = [count(text, statement), count(text, rewrite)];
      if (found === 0 && done === 1) continue;
      if (found !== 1 || done !== 0)
        fail(`${pkg} ${version}: ${name} has neither the known statement nor its rewrite (${found}, ${done})`);
      text = text.replace(statement, rewrite);
      changed = true;
    }
    if (changed) {
      writeFileSync(file, text);
      console.log(`patch-proto-setters: ${pkg} ${version} ${name}: prototypes set with Object.setPrototypeOf`);
    }
  }
}
