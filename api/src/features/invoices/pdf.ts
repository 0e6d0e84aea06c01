import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import { formatInr, toPaise } from '../../../contract/money';
import { invoicePaymentText, type TaxInvoice } from '../../../contract/invoices';

/**
 * The GST tax invoice as a PDF (pdfkit). Text is set in Noto Sans, which has the rupee sign, and any run with
 * Tamil letters in Noto Sans Tamil (fontkit shapes it); both fonts are embedded (subset). Debian's
 * fonts-noto-core provides them (.ci/run installs it); without them the PDF falls back to Helvetica and writes
 * "Rs." for the rupee sign, so the invoice still renders.
 */
const FONT_DIRS = ['/usr/share/fonts/truetype/noto', '/usr/share/fonts/noto'];
const findFont = (file: string) =>
  FONT_DIRS.map((d) => `${d}/${file}`).find((p) => {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  }) ?? null;

const FONTS = {
  regular: findFont('NotoSans-Regular.ttf'),
  bold: findFont('NotoSans-Bold.ttf'),
  tamil: findFont('NotoSansTamil-Regular.ttf'),
  tamilBold: findFont('NotoSansTamil-Bold.ttf'),
};
const TAMIL = /[\u0B80-\u0BFF]/;
/** Runs of Tamil letters (with the spaces between Tamil words), and runs of everything else. */
const SCRIPT_RUNS = /[\u0B80-\u0BFF](?:[\u0B80-\u0BFF\s]*[\u0B80-\u0BFF])?|[^\u0B80-\u0BFF]+/g;

/** lang 'ta': the Tamil invoice, which gives the amount in Tamil words above the English ones. */
export function renderInvoicePdf(inv: TaxInvoice, lang: 'en' | 'ta' = 'en'): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: { Title: `Tax Invoice ${inv.invoice.number}` },
  });
  const embedded = FONTS.regular !== null;
  if (FONTS.regular) doc.registerFont('body', FONTS.regular);
  if (FONTS.bold) doc.registerFont('bold', FONTS.bold);
  if (FONTS.tamil) doc.registerFont('tamil', FONTS.tamil);
  if (FONTS.tamilBold) doc.registerFont('tamilBold', FONTS.tamilBold);

  const fontFor = (text: string, bold = false) => {
    if (TAMIL.test(text) && FONTS.tamil) return bold && FONTS.tamilBold ? 'tamilBold' : 'tamil';
    if (!embedded) return bold ? 'Helvetica-Bold' : 'Helvetica';
    return bold && FONTS.bold ? 'bold' : 'body';
  };
  const clean = (text: string) => (embedded ? text : text.replace(/₹/g, 'Rs. '));
  /**
   * Writes a text in runs of one script each: Tamil letters in Noto Sans Tamil, the rest (Latin, digits, the
   * rupee sign) in Noto Sans, continued on the same line. Noto Sans Tamil has no Latin letters, so a label
   * like "Place of supply: தமிழ்நாடு" set in it whole printed its English part as empty boxes (issue #40).
   */
  const write = (
    text: string,
    opts: { x?: number; y?: number; size?: number; bold?: boolean; width?: number; align?: 'left' | 'right' },
  ) => {
    const runs = clean(text).match(SCRIPT_RUNS) ?? [''];
    runs.forEach((run, i) => {
      doc.font(fontFor(run, opts.bold)).fontSize(opts.size ?? 9);
      const o = { width: opts.width, align: opts.align ?? 'left', continued: i < runs.length - 1 };
      if (i === 0 && opts.x !== undefined && opts.y !== undefined) doc.text(run, opts.x, opts.y, o);
      else doc.text(run, o);
    });
  };
  const inr = (v: string) => formatInr(toPaise(v) / 100);

  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const left = 40;
  const width = doc.page.width - 80;
  write('TAX INVOICE', { size: 16, bold: true });
  write('வரி விலைப்பட்டியல்', { size: 10 });
  doc.moveDown(0.5);
  write(`Invoice No: ${inv.invoice.number}`, { bold: true });
  write(
    `Date: ${new Date(inv.invoice.issuedAt).toLocaleDateString('en-IN', { timeZone: 'Asia/Kolkata' })}`,
    {},
  );
  write(`Order No: ${inv.orderId}`, {});
  doc.moveDown(0.5);

  const top = doc.y;
  const col = width / 2 - 10;
  write('Sold by', { x: left, y: top, bold: true, width: col });
  write(inv.seller.legalName, { width: col });
  write(inv.seller.address, { width: col });
  write(`GSTIN: ${inv.seller.gstin ?? 'Not registered'}`, { width: col });
  write(
    `State code: ${inv.seller.stateCode ?? '-'}${inv.seller.stateName ? ` (${inv.seller.stateName})` : ''}`,
    { width: col },
  );
  const afterSeller = doc.y;
  write('Billed to', { x: left + col + 20, y: top, bold: true, width: col });
  write(inv.buyer.name, { x: left + col + 20, y: doc.y, width: col });
  write(inv.buyer.address, { x: left + col + 20, y: doc.y, width: col });
  if (inv.buyer.gstin) write(`GSTIN: ${inv.buyer.gstin}`, { x: left + col + 20, y: doc.y, width: col });
  if (inv.buyer.panMasked) write(`PAN: ${inv.buyer.panMasked}`, { x: left + col + 20, y: doc.y, width: col });
  write(`Place of supply: ${inv.placeOfSupply}`, { x: left + col + 20, y: doc.y, width: col });
  doc.y = Math.max(afterSeller, doc.y) + 12;

  // The lines.
  const cols = [
    { title: 'Description', w: 150 },
    { title: 'HSN', w: 40 },
    { title: 'Purity', w: 45 },
    { title: 'Weight (g)', w: 70 },
    { title: 'Qty', w: 30 },
    { title: 'Taxable value', w: 85 },
    { title: 'GST 3%', w: 55 },
  ];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    let x = left;
    let bottom = y;
    cells.forEach((cell, i) => {
      write(cell, { x, y, width: cols[i].w - 4, bold, align: i >= 4 ? 'right' : 'left' });
      bottom = Math.max(bottom, doc.y);
      x += cols[i].w;
    });
    doc.y = bottom + 4;
    doc.x = left;
  };
  row(
    cols.map((c) => c.title),
    true,
  );
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.y += 4;
  for (const l of inv.lines) {
    const weight = [l.netWeight && `net ${l.netWeight}`, l.grossWeight && `gross ${l.grossWeight}`]
      .filter(Boolean)
      .join(', ');
    row([
      l.huid ? `${l.description} (HUID ${l.huid})` : l.description,
      l.hsn,
      l.purity ?? '-',
      weight || '-',
      String(l.quantity),
      inr(l.taxableValue),
      inr(l.gst),
    ]);
  }
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke();
  doc.y += 6;

  const total = (label: string, value: string, bold = false) => {
    const y = doc.y;
    write(label, { x: left + width - 260, y, width: 160, bold });
    write(value, { x: left + width - 100, y, width: 100, bold, align: 'right' });
    doc.x = left;
  };
  total('Taxable value', inr(inv.taxableValue));
  if (inv.supply === 'intra') {
    total('CGST 1.5%', inr(inv.cgst));
    total('SGST 1.5%', inr(inv.sgst));
  } else {
    total('IGST 3%', inr(inv.igst));
  }
  total('Total', inr(inv.total), true);
  doc.moveDown(0.8);
  if (lang === 'ta') {
    write(`தொகை எழுத்தில்: ${inv.amountInWordsTa}`, { x: left, y: doc.y, width });
    write(`Amount in words: ${inv.amountInWords}`, { width });
  } else write(`Amount in words: ${inv.amountInWords}`, { x: left, y: doc.y, width });
  write('Tax payable on reverse charge: No', { width });
  write(invoicePaymentText(inv.payment), { width });
  if (inv.creditNote) {
    doc.moveDown(0.5);
    write(
      `This order was cancelled: credit note ${inv.creditNote.number} of ${new Date(
        inv.creditNote.issuedAt,
      ).toLocaleDateString('en-IN', { timeZone: 'Asia/Kolkata' })} reverses this invoice.`,
      { width, bold: true },
    );
  }
  doc.moveDown(1.5);
  write(`For ${inv.seller.legalName}`, { width, align: 'right' });
  write('Authorised signatory', { width, align: 'right' });
  doc.end();
  return done;
}
