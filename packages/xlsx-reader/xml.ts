import { refuse } from "./errors";
import type { ReadStats, XlsxLimits } from "./limits";

/**
 * XML: one streaming tokenizer, fed a part in pieces, that keeps only the token a piece cut in two, never what came
 * before it; and text as an XML parser gives it.
 */

/** A tokenizer's listener: positions are into `xml`, valid during the call only. */
export type Visitor = {
  done: boolean;
  text(xml: string, from: number, to: number): void;
  /** `<name attributes>`: the name is xml[nameStart, nameEnd); the attributes end at `end` (the ">", or "/>"). */
  open(xml: string, nameStart: number, nameEnd: number, end: number, selfClosing: boolean): void;
  close(xml: string, nameStart: number, nameEnd: number): void;
};

/** A listener of names and attribute maps (the small parts: workbook, relationships, styles, shared strings). */
export type XmlHandler = {
  open(name: string, attributes: Record<string, string>, selfClosing: boolean): void;
  text?(text: string): void;
  close(name: string): void;
};

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** XML text or attribute value as a parser gives it: entities and character references replaced, line ends as \n. */
export function xmlText(raw: string): string {
  let text = raw;
  if (text.indexOf("\r") >= 0) text = text.replace(/\r\n?/g, "\n");
  if (text.indexOf("&") < 0) return text;
  return text.replace(ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) => {
    if (name) return NAMED[name];
    const code = hex ? Number.parseInt(hex, 16) : Number.parseInt(dec as string, 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : "\uFFFD";
  });
}

/**
 * exceljs decodes the five named entities once more in inline and formula strings (`utils.xmlDecode`): "&amp;lt;"
 * in the file reads as "<". Kept, so that such cells read as before.
 */
export function decodeAgain(text: string): string {
  if (text.indexOf("&") < 0) return text;
  return text.replace(/&([a-z]*);/g, (entity, name: string) =>
    name === "lt" || name === "gt" || name === "amp" || name === "apos" || name === "quot" ? NAMED[name] : entity,
  );
}

const isNameEnd = (code: number) =>
  code === 32 || code === 47 || code === 62 || code === 9 || code === 10 || code === 13;

/** The end (">") of the tag that starts at `lt`, past quoted attribute values; -1 if the text ends first. */
function tagEnd(xml: string, lt: number): number {
  for (let at = lt + 1; at < xml.length; at++) {
    const code = xml.charCodeAt(at);
    if (code === 62 /* > */) return at;
    if (code === 34 /* " */ || code === 39 /* ' */) {
      at = xml.indexOf(code === 34 ? '"' : "'", at + 1);
      if (at < 0) return -1;
    }
  }
  return -1;
}

/** What ends the comment, CDATA, processing instruction or declaration that starts at `lt` ("<!" or "<?"). */
function skippedUntil(xml: string, lt: number, next: number): string {
  if (next === 63 /* ? */) return "?>";
  return xml.startsWith("<!--", lt) ? "-->" : xml.startsWith("<![CDATA[", lt) ? "]]>" : ">";
}

/**
 * Tokens of a part fed in pieces: each complete tag and text goes to the visitor as it is found; a token cut by the
 * piece's end (a tag, the text before the next tag) is kept and completed by the next piece. Comments, CDATA,
 * processing instructions and declarations are skipped as they stream, keeping only their last two characters.
 * What is kept is at most `tokenBytes` characters: past it the file is refused.
 */
export class XmlTokenizer {
  private carry = "";
  /** The end of the comment, CDATA, instruction or declaration being skipped. */
  private skip = "";

  constructor(
    private readonly visitor: Visitor,
    private readonly limits: XlsxLimits,
    private readonly stats: ReadStats,
  ) {}

  /** The characters kept from the last piece (a token it cut). */
  get carried(): number {
    return this.carry.length;
  }

  /** Whether the part ended inside a token (a truncated tag or comment). */
  get cut(): boolean {
    return this.skip !== "" || this.carry.charCodeAt(0) === 60;
  }

  feed(piece: string, last: boolean): void {
    const visitor = this.visitor;
    const xml = this.carry.length > 0 ? this.carry + piece : piece;
    this.carry = "";
    this.stats.scannedChars += xml.length;
    const length = xml.length;
    let at = 0;
    while (at < length && !visitor.done) {
      if (this.skip !== "") {
        const end = xml.indexOf(this.skip, at);
        if (end < 0) {
          at = Math.max(at, length - (this.skip.length - 1));
          break;
        }
        at = end + this.skip.length;
        this.skip = "";
        continue;
      }
      const lt = xml.indexOf("<", at);
      if (lt < 0) break; // text to the end: kept until its tag comes
      if (lt > at) visitor.text(xml, at, lt);
      at = lt;
      const next = xml.charCodeAt(lt + 1);
      if (next === 33 /* ! */ || next === 63 /* ? */) {
        if (lt + 9 > length && !last) break; // "<!--" and "<![CDATA[" are told apart by what follows
        this.skip = skippedUntil(xml, lt, next);
        at = lt + 2;
      } else if (next === 47 /* / */) {
        const end = xml.indexOf(">", lt + 2);
        if (end < 0) break;
        visitor.close(xml, lt + 2, end);
        at = end + 1;
      } else {
        const end = tagEnd(xml, lt);
        if (end < 0) break;
        let nameEnd = lt + 1;
        while (nameEnd < end && !isNameEnd(xml.charCodeAt(nameEnd))) nameEnd++;
        visitor.open(xml, lt + 1, nameEnd, end, xml.charCodeAt(end - 1) === 47);
        at = end + 1;
      }
    }
    this.keep(xml, at);
  }

  /** Keeps what the piece left from `at` (a token it cut), within the token cap. */
  private keep(xml: string, at: number): void {
    if (at < xml.length && !this.visitor.done) this.carry = xml.slice(at);
    if (this.carry.length > this.stats.longestCarry) this.stats.longestCarry = this.carry.length;
    if (this.carry.length > this.limits.tokenBytes) throw refuse("token", this.limits.tokenBytes);
  }
}

/** The attributes of the tag whose name ends at `from` and which ends at `end` (the index of its ">"). */
export function attributesOf(xml: string, from: number, end: number): Record<string, string> {
  const attributes: Record<string, string> = {};
  let at = from;
  while (at < end) {
    const eq = xml.indexOf("=", at);
    if (eq < 0 || eq >= end) break;
    const name = xml.slice(at, eq).trim();
    let q = eq + 1;
    while (q < end && xml.charCodeAt(q) !== 34 && xml.charCodeAt(q) !== 39) q++;
    if (q >= end) break;
    const close = xml.indexOf(xml[q], q + 1);
    if (close < 0) break;
    attributes[name] = xmlText(xml.slice(q + 1, close));
    at = close + 1;
  }
  return attributes;
}

/** The value of attribute `name` in the tag text `tag` (between the name and ">"), undefined if absent. */
export function attribute(tag: string, name: string): string | undefined {
  let at = 0;
  for (;;) {
    at = tag.indexOf(name, at);
    if (at < 0) return undefined;
    const before = tag.charCodeAt(at - 1);
    let eq = at + name.length;
    while (tag.charCodeAt(eq) === 32) eq++;
    if ((before === 32 || before === 9 || before === 10 || before === 13) && tag.charCodeAt(eq) === 61) {
      let q = eq + 1;
      while (tag.charCodeAt(q) === 32) q++;
      const quote = tag[q];
      const end = tag.indexOf(quote, q + 1);
      const raw = tag.slice(q + 1, end);
      return raw.indexOf("&") >= 0 || raw.indexOf("\r") >= 0 ? xmlText(raw) : raw;
    }
    at += name.length;
  }
}

/** A tokenizer's listener for a handler of names and attribute maps (the small parts). */
export function handlerVisitor(handler: XmlHandler): Visitor {
  return {
    done: false,
    text(xml, from, to) {
      if (handler.text) handler.text(xmlText(xml.slice(from, to)));
    },
    open(xml, nameStart, nameEnd, end, selfClosing) {
      const name = xml.slice(nameStart, nameEnd);
      handler.open(name, attributesOf(xml, nameEnd, selfClosing ? end - 1 : end), selfClosing);
      if (selfClosing) handler.close(name);
    },
    close(xml, nameStart, nameEnd) {
      handler.close(xml.slice(nameStart, nameEnd).trim());
    },
  };
}
