import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_DETAIL_ACTIONS, AUDIT_EVENTS } from "~/models/audit.fields";
import { auditTexts as t } from "./texts";

/**
 * Every event type and every action the portal writes to its audit trail has a label in pt-BR words: the screen and
 * the export show the label, never the code ("Preparador adicionado", not "preparerAdded"). The type check asks for a
 * label of every listed name; this finds a writer that names an action the list lacks.
 */

const root = path.resolve(__dirname, "../../..");

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
  }
  return out;
}

/** A label reads as words: not the code itself, no camelCase, a capital first letter. */
function readsAsWords(code: string, label: string | undefined): boolean {
  return !!label && label !== code && !/[a-z][A-Z]/.test(label) && /^[A-ZÀ-Ú]/.test(label);
}

describe("the audit trail's names in words", () => {
  it("labels every event type and every action", () => {
    for (const event of AUDIT_EVENTS) expect(readsAsWords(event, t.eventLabels[event]), event).toBe(true);
    for (const action of AUDIT_DETAIL_ACTIONS) expect(readsAsWords(action, t.actionLabels[action]), action).toBe(true);
    expect(t.actionLabels.preparerAdded).toBe("Preparador adicionado");
  });

  it("lists every action and event a writer of the trail names in the code", () => {
    const writers = sourceFiles("app").filter((file) => {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      return /from "~\/platform\/audit\/|from "\.\/record\.server"|recordAudit\(/.test(text);
    });
    expect(writers.length).toBeGreaterThan(10);
    const named = { action: new Set<string>(), event: new Set<string>() };
    for (const file of writers) {
      const text = fs.readFileSync(path.join(root, file), "utf8");
      for (const [, key, value] of text.matchAll(/\b(action|event): "([A-Za-z]+)"/g))
        named[key as "action" | "event"].add(value);
      // An action typed as a union of names (auditVersion("versionSaved" | "versionDeleted", …)).
      for (const [, union] of text.matchAll(/\baction: ((?:"[A-Za-z]+"(?: \| )?)+)/g))
        for (const [, value] of union.matchAll(/"([A-Za-z]+)"/g)) named.action.add(value);
    }
    expect([...named.action]).toEqual(expect.arrayContaining(["retryAll", "preparerAdded", "versionDeleted"]));
    expect([...named.action].filter((a) => !(AUDIT_DETAIL_ACTIONS as readonly string[]).includes(a))).toEqual([]);
    expect([...named.event].filter((e) => !(AUDIT_EVENTS as readonly string[]).includes(e))).toEqual([]);
  });
});
