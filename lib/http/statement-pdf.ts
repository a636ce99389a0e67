import { type PDFFont, PDFDocument, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { StatementBody } from './statement-render.ts';
import { amountText, fromMicros } from '#lib/domain/shared/money.ts';
import { exchangeRateText } from '#lib/domain/money/statements/view.ts';

// The statement as a PDF a client's accountant files (decisions §27), made with pdf-lib (pure JavaScript, the
// standard fonts built in: it bundles with esbuild and needs no file or network at run time).

const A4 = [595.28, 841.89] as const;
const MARGIN = 40;
const SIZE = 9;
const LINE = 13;

/** Text the standard fonts can write (WinAnsi): other characters become `?`. */
const printable = (text: string) => text.replace(/[–—]/g, '-').replace(/[^\x20-\x7e\xa0-\xff]/g, '?');

/** Amounts to the micro-unit, as the JSON has them. */
const money = (value: number | undefined) => (value === undefined ? '' : amountText(value));

/** A line billed before the client's price list, to its agent (decisions §32): named so, never at its cost. */
const NOT_PRICED = 'not priced';

type CurrencyStatement = StatementBody['statements'][number];

export async function statementPdf(body: StatementBody): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Statement ${body.month} - client ${body.client_id}`);
  doc.setAuthor(body.provider);
  doc.setSubject(`lines sha256 ${body.lines_sha256}`);
  doc.setCreationDate(new Date(body.closed_snapshot_at ?? Date.now()));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const writer = new Writer(doc, font);
  writeHeading(writer, body, bold);
  // The cost and margin columns are there when the provider sees them (the statements carry costs).
  const withCost = body.statements.some((s) => s.totals.cost !== undefined);
  if (body.statements.length === 0) writer.text('No charges this month.');
  for (const statement of body.statements) writeCurrencyTable(writer, statement, withCost, bold);
  writer.text(`Rate cards: ${body.card_versions.join(', ') || 'none'}`);
  writer.text(`Price lists: ${body.price_list_versions.join(', ') || 'none (Meta cost)'}`);
  for (const rate of body.exchange_rates ?? []) writer.text(`Exchange rate: ${exchangeRateText(rate)}`);
  writer.text(`Lines sha256: ${body.lines_sha256}`);
  writer.text('Unit price and amounts in the currency of each table, to the micro-unit.', { size: 8 });
  writer.text(`Rounding: ${body.rounding}`, { size: 8 });
  return doc.save();
}

/** Who the statement is from and for, its month and whether it may still change. */
function writeHeading(writer: Writer, body: StatementBody, bold: PDFFont) {
  writer.text(body.provider, { font: bold, size: 14 });
  writer.text(body.provider_address);
  writer.text(`Statement of ${body.month} (${body.status === 'closed' ? 'CLOSED' : 'OPEN'})`, { font: bold, size: 12 });
  writer.text(`Statement number: ${body.number}`);
  writer.text(`Client: ${body.client_name} (client_id ${body.client_id})`);
  writer.text(`Period: ${body.period.from} to ${body.period.to} (UTC)`);
  writer.text(
    body.status === 'closed'
      ? `Status: closed, kept ${body.closed_snapshot_at ?? ''}; it never changes. Late charges go on the next month as adjustments.`
      : `Status: open; due to close ${body.closes_at}, it may change until the close job closes it.`,
  );
  writer.gap();
}

/** One currency's table: a row per line, then its totals. */
function writeCurrencyTable(writer: Writer, { currency, lines, totals, amount_due }: CurrencyStatement, withCost: boolean, bold: PDFFont) {
  const columns = ['Kind', 'Market', 'Category', 'Unit price', 'Messages', 'Billable', 'Amount', ...(withCost ? ['Cost', 'Margin'] : [])];
  const widths = withCost ? [52, 92, 92, 52, 44, 40, 56, 52, 50] : [60, 120, 120, 60, 50, 50, 70];
  writer.text(`Currency: ${currency}`, { font: bold, size: 11 });
  writer.row(columns, widths, bold);
  for (const line of lines)
    writer.row(
      [
        `${line.kind === 'adjustment' ? `adj. ${line.of_month ?? ''}` : 'charge'}${line.origin === 'outside' ? ' (outside)' : ''}`,
        line.market,
        line.category,
        line.priced === false ? NOT_PRICED : money(fromMicros(line.unit_price ?? 0)),
        String(line.messages),
        String(line.billable),
        line.priced === false ? NOT_PRICED : money(line.amount),
        ...(withCost ? [money(line.cost), money(line.margin)] : []),
      ],
      widths,
    );
  const costs = withCost ? [money(totals.cost), money(totals.margin)] : [];
  writer.row(['Total', '', '', '', String(totals.messages), String(totals.billable), money(totals.amount), ...costs], widths, bold);
  writer.text(`Total ${currency}: ${money(totals.amount)}`, { font: bold });
  if (totals.unpriced_messages !== undefined)
    writer.text(
      `Not priced (before the price list): ${totals.unpriced_messages} messages, ${totals.unpriced_billable ?? 0} billable; not in the total.`,
    );
  writer.text(`Amount due ${currency}: ${amount_due.amount.toFixed(amount_due.minor_digits)}`, { font: bold });
  writer.gap();
}

/** Writes lines top to bottom, starting a new page when one is full, each page numbered. */
class Writer {
  private page: PDFPage;
  private y = 0;
  private pages = 0;

  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.page = this.newPage();
  }

  private newPage() {
    this.page = this.doc.addPage([...A4]);
    this.pages += 1;
    this.page.drawText(`Page ${this.pages}`, {
      x: A4[0] - MARGIN - 40,
      y: MARGIN / 2,
      size: 8,
      font: this.font,
      color: rgb(0.4, 0.4, 0.4),
    });
    this.y = A4[1] - MARGIN;
    return this.page;
  }

  private room(height: number) {
    if (this.y - height < MARGIN) this.newPage();
  }

  text(text: string, style: { font?: PDFFont; size?: number } = {}) {
    const size = style.size ?? SIZE;
    this.room(size + 4);
    this.y -= size + 4;
    this.page.drawText(printable(text), { x: MARGIN, y: this.y, size, font: style.font ?? this.font, maxWidth: A4[0] - 2 * MARGIN });
  }

  gap() {
    this.y -= LINE / 2;
  }

  row(cells: string[], widths: number[], font: PDFFont = this.font) {
    this.room(LINE);
    this.y -= LINE;
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const numeric = i >= 3;
      // A name wider than its column is cut (numbers never are: their columns fit them).
      let text = printable(cell);
      while (!numeric && text.length > 1 && font.widthOfTextAtSize(text, SIZE - 1) > widths[i] - 4) text = `${text.slice(0, -2)}.`;
      const width = font.widthOfTextAtSize(text, SIZE - 1);
      this.page.drawText(text, { x: numeric ? x + widths[i] - width - 4 : x, y: this.y, size: SIZE - 1, font });
      x += widths[i];
    });
  }
}
