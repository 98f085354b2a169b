import { formatAmount } from "~/models/reports.fields";

/**
 * Office documents and PDFs from one small description (a title, a few lines, tables): XLSX with exceljs, DOCX
 * with docx, PDF with pdfkit. The financial statements and the seeded report files are written through here.
 * Each library is loaded on first use, so the web process carries none of them until a document is made.
 */

export type DocCell = string | number;
export type DocTable = {
  title: string;
  columns: readonly string[];
  rows: readonly DocCell[][];
  /** Rows (by index) shown in bold: group headers and totals. */
  boldRows?: ReadonlySet<number>;
};
export type DocSpec = {
  title: string;
  lines: readonly string[];
  tables: readonly DocTable[];
  /** Written into the document's properties (and the XLSX's dates), so the same input gives the same content. */
  createdAt: Date;
  author: string;
};

const cellText = (cell: DocCell) => (typeof cell === "number" ? formatAmount(cell) : cell);

/** One worksheet per table: the title and lines above it, numbers kept as numbers (2 decimals). */
export async function renderXlsx(spec: DocSpec): Promise<Buffer> {
  const { default: Excel } = await import("exceljs");
  const workbook = new Excel.Workbook();
  workbook.creator = spec.author;
  workbook.created = spec.createdAt;
  workbook.modified = spec.createdAt;
  workbook.title = spec.title;
  for (const table of spec.tables) {
    const sheet = workbook.addWorksheet(table.title.slice(0, 31).replace(/[\\/?*[\]:]/g, " "));
    sheet.addRow([spec.title]).font = { bold: true, size: 14 };
    for (const line of spec.lines) sheet.addRow([line]);
    sheet.addRow([]);
    const header = sheet.addRow([...table.columns]);
    header.font = { bold: true };
    table.rows.forEach((cells, i) => {
      const row = sheet.addRow([...cells]);
      if (table.boldRows?.has(i)) row.font = { bold: true };
      row.eachCell((cell) => {
        if (typeof cell.value === "number") cell.numFmt = "#,##0.00";
      });
    });
    table.columns.forEach((_, i) => {
      sheet.getColumn(i + 1).width = i === 0 ? 44 : 20;
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A Word document: the title as a heading, the lines as paragraphs, each table with its title. */
export async function renderDocx(spec: DocSpec): Promise<Buffer> {
  const docx = await import("docx");
  const { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType, AlignmentType } =
    docx;
  const children: (InstanceType<typeof Paragraph> | InstanceType<typeof Table>)[] = [
    new Paragraph({ text: spec.title, heading: HeadingLevel.HEADING_1 }),
    ...spec.lines.map((line) => new Paragraph({ text: line })),
  ];
  for (const table of spec.tables) {
    children.push(new Paragraph({ text: table.title, heading: HeadingLevel.HEADING_2 }));
    const cell = (text: string, bold: boolean, numeric: boolean) =>
      new TableCell({
        children: [
          new Paragraph({
            alignment: numeric ? AlignmentType.RIGHT : AlignmentType.LEFT,
            children: [new TextRun({ text, bold })],
          }),
        ],
      });
    children.push(
      new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: [
          new TableRow({ tableHeader: true, children: table.columns.map((c) => cell(c, true, false)) }),
          ...table.rows.map(
            (cells, i) =>
              new TableRow({
                children: cells.map((c) => cell(cellText(c), table.boldRows?.has(i) ?? false, typeof c === "number")),
              }),
          ),
        ],
      }),
    );
  }
  const document = new Document({ creator: spec.author, title: spec.title, sections: [{ children }] });
  return Packer.toBuffer(document);
}

/** A PDF (A4, Helvetica): the title, the lines and the tables as aligned text rows. */
export async function renderPdf(spec: DocSpec): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    margin: 40,
    info: { Title: spec.title, Author: spec.author, CreationDate: spec.createdAt },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(16).text(spec.title);
  doc.moveDown(0.5).font("Helvetica").fontSize(10);
  for (const line of spec.lines) doc.text(line);
  const width = doc.page.width - 80;
  for (const table of spec.tables) {
    doc.moveDown().font("Helvetica-Bold").fontSize(12).text(table.title, 40);
    const columnWidth = (i: number) => (i === 0 ? width * 0.4 : (width * 0.6) / Math.max(1, table.columns.length - 1));
    const drawRow = (cells: readonly string[], bold: boolean) => {
      if (doc.y > doc.page.height - 60) doc.addPage();
      const y = doc.y;
      let x = 40;
      doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(9);
      cells.forEach((text, i) => {
        doc.text(text, x, y, {
          width: columnWidth(i) - 4,
          align: i === 0 ? "left" : "right",
          lineBreak: false,
          ellipsis: true,
        });
        x += columnWidth(i);
      });
      doc.x = 40;
      doc.y = y + 14;
    };
    doc.moveDown(0.3);
    drawRow(table.columns, true);
    table.rows.forEach((cells, i) => {
      drawRow(cells.map(cellText), table.boldRows?.has(i) ?? false);
    });
  }
  doc.end();
  return done;
}
