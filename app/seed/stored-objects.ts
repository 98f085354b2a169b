import {
  type DocSpec,
  type DocTable,
  renderDocx,
  renderPdf,
  renderXlsx,
} from "~/features/reports-and-financial/documents-render.server";
import { contentTypeOf, type DocumentSink } from "~/features/reports-and-financial/documents-store.server";
import type { Random } from "./random";

/**
 * The bytes behind seeded records (report files, repository files, statements, fiscal worksheets). Records
 * name a key; the registry makes each distinct key once and writes it through the storage provider. Records
 * that may share bytes but not a key (each job owns its object: files have a unique bucket × key) render
 * their content once through `shared`, so the seed stays fast at scale 10. Keys live under `seed/`, apart
 * from the upload keys.
 */
export class SeedObjects {
  private readonly makers = new Map<string, Maker>();
  private readonly contents = new Map<string, Promise<Buffer>>();

  /** A maker that renders `contentKey` once, however many objects use it. */
  shared(contentKey: string, make: () => Promise<Buffer>): Maker {
    const maker: Maker = () => {
      let content = this.contents.get(contentKey);
      if (!content) {
        content = make();
        this.contents.set(contentKey, content);
      }
      return content;
    };
    maker.contentKey = contentKey;
    return maker;
  }

  /** Registers `key` (first maker wins) and returns it. */
  need(key: string, make: () => Promise<Buffer>): string {
    if (!this.makers.has(key)) this.makers.set(key, make);
    return key;
  }

  get size(): number {
    return this.makers.size;
  }

  /**
   * Makes and writes every registered object, a few at a time; returns how many. Objects of one shared content
   * are written once and then copied by the store (`putCopy`: a hard link on the local store), where it can.
   */
  async writeAll(sink: DocumentSink, concurrency = 8): Promise<number> {
    const entries = [...this.makers.entries()];
    const firstStored = new Map<string, Promise<string>>();
    const put = async (key: string, make: Maker) => sink.put(key, await make(), contentTypeOf(key));
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const [key, make] = entries[next++];
        const contentKey = make.contentKey;
        if (contentKey === undefined || !sink.putCopy) {
          await put(key, make);
          continue;
        }
        const first = firstStored.get(contentKey);
        if (first) {
          await sink.putCopy(await first, key);
        } else {
          const stored = put(key, make).then(() => key);
          firstStored.set(contentKey, stored);
          await stored;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    return entries.length;
  }
}

/** Makes an object's bytes; `contentKey` when they are shared with other objects (SeedObjects.shared). */
type Maker = (() => Promise<Buffer>) & { contentKey?: string };

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A small table of indicators for a seeded report or file (deterministic for its random). */
export function indicatorTable(random: Random, title: string, rows = 12): DocTable {
  const names = [
    "Receita bruta",
    "Volume (un.)",
    "Ticket médio",
    "Margem bruta",
    "Estoque (dias)",
    "Ruptura (%)",
    "Sell-out",
    "Sell-in",
    "Devoluções",
    "Descontos",
    "Geração (MWh)",
    "Disponibilidade (%)",
  ];
  return {
    title,
    columns: ["Indicador", "Mês", "Mês anterior", "Variação %"],
    rows: Array.from({ length: rows }, (_, i) => {
      const current = round2(1_000 + random.next() * 250_000);
      const prior = round2(current * (0.85 + random.next() * 0.3));
      return [names[i % names.length], current, prior, round2(((current - prior) / prior) * 100)];
    }),
  };
}

/** The bytes of a document of extension `ext` for `spec`. */
export async function renderByExtension(ext: string, spec: DocSpec): Promise<Buffer> {
  switch (ext) {
    case "xlsx":
      return renderXlsx(spec);
    case "docx":
      return renderDocx(spec);
    case "pdf":
      return renderPdf(spec);
    case "zip": {
      const { default: JSZip } = await import("jszip");
      const zip = new JSZip();
      zip.file("dados.csv", csvOf(spec.tables[0]), { date: spec.createdAt });
      return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
    }
    case "csv":
      return Buffer.from(csvOf(spec.tables[0]), "utf8");
    default:
      return Buffer.from([spec.title, ...spec.lines, "", csvOf(spec.tables[0])].join("\n"), "utf8");
  }
}

function csvOf(table: DocTable): string {
  const quote = (v: string | number) =>
    typeof v === "number" ? String(v) : /[;"\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
  return `${[table.columns.map(quote).join(";"), ...table.rows.map((r) => r.map(quote).join(";"))].join("\n")}\n`;
}
