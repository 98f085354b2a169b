import { describe, expect, it } from "vitest";
import { JOB_MESSAGE_LIMIT, JOB_NAME_LIMIT, truncateJobMessage, truncateJobName } from "./truncate";

describe("truncateJobName (spec 000 §9: 15 characters plus dots)", () => {
  it("keeps a name of up to 15 characters as it is", () => {
    expect(truncateJobName("")).toEqual({ text: "", truncated: false });
    expect(truncateJobName("vendas_2024.csv")).toEqual({ text: "vendas_2024.csv", truncated: false });
    expect("vendas_2024.csv").toHaveLength(JOB_NAME_LIMIT);
  });
  it("cuts a longer name to its first 15 characters followed by three dots", () => {
    expect(truncateJobName("product_master_2024.csv")).toEqual({ text: "product_master_...", truncated: true });
    expect(truncateJobName("abcdefghijklmnop")).toEqual({ text: "abcdefghijklmno...", truncated: true });
  });
  it("never splits a character made of two UTF-16 units", () => {
    const name = "relatório😀😀😀😀😀😀😀.csv";
    const { text } = truncateJobName(name);
    expect(text).toBe("relatório😀😀😀😀😀😀...");
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
  it("counts characters, not UTF-16 units: 15 characters of two units each are kept whole", () => {
    const name = "😀".repeat(JOB_NAME_LIMIT);
    expect(name.length).toBe(2 * JOB_NAME_LIMIT);
    expect(truncateJobName(name)).toEqual({ text: name, truncated: false });
    expect(truncateJobName(`${name}x`)).toEqual({ text: `${name}...`, truncated: true });
  });
});

describe("truncateJobMessage (spec 000 §9: longer than 45 → 42 plus dots)", () => {
  it("keeps a message of up to 45 characters", () => {
    const exactly45 = "x".repeat(JOB_MESSAGE_LIMIT);
    expect(truncateJobMessage(exactly45)).toEqual({ text: exactly45, truncated: false });
    expect(truncateJobMessage("12 linhas OK, 3 NOK")).toEqual({ text: "12 linhas OK, 3 NOK", truncated: false });
  });
  it("cuts a message of 46 characters or more to 42 characters plus three dots", () => {
    const message = "Layout não reconhecido: o cabeçalho não corresponde a nenhum modelo";
    const result = truncateJobMessage(message);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe(`${message.slice(0, 42)}...`);
    expect(result.text).toHaveLength(45);
    expect(truncateJobMessage("y".repeat(46)).text).toBe(`${"y".repeat(42)}...`);
  });
  it("treats a missing message as empty", () => {
    expect(truncateJobMessage(undefined)).toEqual({ text: "", truncated: false });
    expect(truncateJobName(null)).toEqual({ text: "", truncated: false });
  });
});

describe("truncation over any string", () => {
  /** The rule as written: characters as Array.from counts them (a lone surrogate is one). */
  const byArray = (text: string, limit: number, keep: number) => {
    const chars = Array.from(text);
    return chars.length <= limit
      ? { text, truncated: false }
      : { text: `${chars.slice(0, keep).join("")}...`, truncated: true };
  };

  it("cuts as counting every character would, lone and paired surrogates included", () => {
    const pieces = ["a", "é", "😀", "\ud83d", "\ude00", " ", "ç"];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let n = 0; n < 2_000; n++) {
      const text = Array.from({ length: next() % 60 }, () => pieces[next() % pieces.length]).join("");
      expect(truncateJobName(text)).toEqual(byArray(text, JOB_NAME_LIMIT, JOB_NAME_LIMIT));
      expect(truncateJobMessage(text)).toEqual(byArray(text, JOB_MESSAGE_LIMIT, 42));
    }
  });
});
