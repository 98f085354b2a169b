import { createRequire } from "node:module";
import { Writable } from "node:stream";
import { afterAll, describe, expect, test } from "vitest";

/**
 * The bytes React's streaming server renderer sends (docs/decisions.md, "React's streaming renderer, corrected
 * at install"). React 18.3.1 buffers its output in 2,048-byte views; when a character of two or three bytes did
 * not fit in the rest of a view, it sent the whole view, zero bytes included: NULs in pages, U+FFFD in attributes
 * (`l|Cobran\uFFFDça`). scripts/patch-react-dom.mjs corrects it at install. Each case puts an accented character
 * 0 to 3 bytes before the end of the first view, in a text node and in an attribute, and renders with the
 * development and the production builds, each loaded as the portal loads them (`react-dom/server` under its
 * NODE_ENV).
 */

const require = createRequire(import.meta.url);
type ReactModule = typeof import("react");
type ServerModule = typeof import("react-dom/server");

const VIEW = 2048;
const originalEnv = process.env.NODE_ENV;
afterAll(() => {
  process.env.NODE_ENV = originalEnv;
});

/** React and its Node server renderer, loaded afresh under `mode` (the entry files pick their build by NODE_ENV). */
function loadRenderer(mode: "development" | "production"): { React: ReactModule; server: ServerModule } {
  for (const key of Object.keys(require.cache))
    if (/[/\\]node_modules[/\\]react(-dom)?[/\\]/.test(key)) delete require.cache[key];
  process.env.NODE_ENV = mode;
  const React = require("react") as ReactModule;
  const server = require("react-dom/server") as ServerModule;
  const loaded = Object.keys(require.cache).filter((key) => key.includes("react-dom-server.node."));
  expect(loaded.some((key) => key.includes(mode === "production" ? ".production.min.js" : ".development.js"))).toBe(
    true,
  );
  return { React, server };
}

/** What `renderToPipeableStream` sends for `element`, as bytes. */
function streamBytes(server: ServerModule, element: React.ReactElement): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    sink.on("finish", () => resolve(Buffer.concat(chunks)));
    const { pipe } = server.renderToPipeableStream(element, {
      onAllReady: () => pipe(sink),
      onShellError: reject,
      onError: reject,
    });
  });
}

const CHARACTERS = ["ç", "ã", "—"];
const PLACES = ["text", "attribute"] as const;
const LABEL = "Cobrança — ação, previsão";

/**
 * A table row whose `place` (its text or its data-row attribute) starts with `character`, after `pad` ASCII bytes
 * spread over a few attributes (none longer than a third of a view: React writes a longer string past its view).
 */
function tree(React: ReactModule, character: string, place: (typeof PLACES)[number], pad: number) {
  const h = React.createElement;
  const pads = [0, 1, 2, 3].map((i) => "x".repeat(Math.floor(pad / 4) + (i < pad % 4 ? 1 : 0)));
  const value = `${character}${LABEL}`;
  return h(
    "table",
    null,
    h(
      "tbody",
      null,
      h(
        "tr",
        { "data-a": pads[0], "data-b": pads[1], "data-c": pads[2], "data-d": pads[3] },
        place === "text" ? h("td", null, value) : h("td", { "data-row": `l|${value}` }, "Σ"),
      ),
      // More accented text after the boundary, so the view that follows is checked too.
      ...Array.from({ length: 40 }, (_, i) => h("tr", { key: i, "data-row": `l|${LABEL} ${i}` }, h("td", null, LABEL))),
    ),
  );
}

/** The padding that puts `character`'s first byte `offset` bytes before the end of the first view. */
function padFor(
  server: ServerModule,
  React: ReactModule,
  character: string,
  place: (typeof PLACES)[number],
  offset: number,
) {
  const bare = Buffer.from(server.renderToString(tree(React, character, place, 0)));
  const at = bare.indexOf(Buffer.from(character));
  expect(at).toBeLessThan(VIEW - 3);
  return VIEW - offset - at;
}

describe.each(["production", "development"] as const)("renderToPipeableStream, %s build", (mode) => {
  test.each(CHARACTERS.flatMap((character) => PLACES.map((place) => [character, place] as const)))(
    "%s in %s, 0 to 3 bytes before a view's end: valid UTF-8 without NUL, the same markup as renderToString",
    async (character, place) => {
      const { React, server } = loadRenderer(mode);
      for (const offset of [0, 1, 2, 3]) {
        const element = tree(React, character, place, padFor(server, React, character, place, offset));
        const expected = server.renderToString(element);
        expect(Buffer.from(expected).indexOf(Buffer.from(character))).toBe(VIEW - offset);
        const bytes = await streamBytes(server, element);
        expect(bytes.indexOf(0), `NUL byte with ${character} ${offset} bytes before the view's end`).toBe(-1);
        const text = new TextDecoder("utf-8").decode(bytes);
        expect(text).not.toContain("\uFFFD");
        expect(text).toBe(expected);
      }
    },
  );
});
