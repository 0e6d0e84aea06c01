import { describe, expect, it } from 'vitest';
import type { TaxInvoice } from '../../api/contract/invoices';
import { renderInvoicePdf } from '../../api/src/features/invoices/pdf';

/**
 * The invoice PDF sets every run of text in a font that has its letters (issue #40 item 6): Tamil in Noto Sans
 * Tamil, Latin letters, digits and the rupee sign in Noto Sans, even within one label ("Place of supply:
 * தமிழ்நாடு"). Read back with PDF.js: each text item's font is looked up by name.
 */
const invoice: TaxInvoice = {
  orderId: 7,
  invoice: { kind: 'invoice', number: 'LAK/2026-27/000007', issuedAt: '2026-11-20T06:30:00.000Z' },
  creditNote: null,
  seller: {
    legalName: 'Lakshmi Jewellers Pvt Ltd',
    address: '14 North Mada Street, Mylapore, Chennai, Tamil Nadu - 600004',
    gstin: '33AABCL1234M1Z5',
    stateCode: '33',
    stateName: 'Tamil Nadu',
  },
  buyer: {
    name: 'பிரியா Raman',
    address: '21 லஸ் சர்ச் ரோடு, Mylapore, சென்னை - 600004',
    gstin: null,
    state: 'தமிழ்நாடு',
    stateCode: '33',
    panMasked: null,
  },
  placeOfSupply: 'தமிழ்நாடு (33)',
  supply: 'intra',
  lines: [
    {
      description: 'தங்க சங்கிலி 22K Gold Chain',
      hsn: '7113',
      purity: '22K',
      netWeight: '10.500',
      grossWeight: '11.200',
      huid: 'AB12CD',
      quantity: 1,
      unitPrice: '20600.00',
      taxableValue: '20000.00',
      gst: '600.00',
      total: '20600.00',
    },
  ],
  taxableValue: '20000.00',
  cgst: '300.00',
  sgst: '300.00',
  igst: '0.00',
  totalGst: '600.00',
  total: '20600.00',
  amountInWords: 'Rupees Twenty Thousand Six Hundred Only',
  amountInWordsTa: 'ரூபாய் இருபதாயிரத்து அறுநூறு மட்டும்',
  reverseCharge: false,
  payment: {
    method: 'upi',
    status: 'paid',
    paidAt: '2026-11-20T06:30:00.000Z',
    reference: 'pay_Q1w2E3r4T5y6U7',
  },
} as TaxInvoice;

async function pdfText(inv: TaxInvoice, lang: 'en' | 'ta' = 'en'): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(await renderInvoicePdf(inv, lang)),
    useSystemFonts: false,
  }).promise;
  const content = await (await doc.getPage(1)).getTextContent();
  return content.items.map((i) => ('str' in i ? i.str : '')).join('');
}

describe('the invoice PDF', () => {
  it('sets Tamil in the Tamil font and everything else in the Latin one, even within a label', async () => {
    const bytes = new Uint8Array(await renderInvoicePdf(invoice));
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const doc = await pdfjs.getDocument({ data: bytes, useSystemFonts: false }).promise;
    const page = await doc.getPage(1);
    await page.getOperatorList();
    const content = await page.getTextContent();
    const items = content.items.filter((i): i is typeof i & { str: string; fontName: string } => 'str' in i);
    const fontOf = (id: string) => (page.commonObjs.get(id) as { name: string }).name;
    let tamilRuns = 0;
    let latinRuns = 0;
    for (const item of items) {
      if (/[A-Za-z0-9₹]/.test(item.str)) {
        expect(fontOf(item.fontName), item.str).toMatch(/NotoSans-(Regular|Bold)/);
        latinRuns++;
      }
      if (/[\u0B80-\u0BFF]/.test(item.str)) {
        expect(fontOf(item.fontName), item.str).toMatch(/NotoSansTamil-(Regular|Bold)/);
        tamilRuns++;
      }
    }
    expect(tamilRuns).toBeGreaterThanOrEqual(5);
    expect(latinRuns).toBeGreaterThanOrEqual(20);
    const text = items.map((i) => i.str).join('');
    expect(text).toContain('Place of supply: ');
    expect(text).toContain('தமிழ்நாடு');
    expect(text).toContain('HUID AB12CD');
  });

  it('prints how and when the order was paid, with the payment reference (issue #40 item 6)', async () => {
    const text = await pdfText(invoice);
    expect(text).toContain('Paid by UPI on 20 Nov 2026, 12:00 pm IST.');
    expect(text).toContain('Payment reference: pay_Q1w2E3r4T5y6U7.');
    const cash = await pdfText({
      ...invoice,
      payment: { method: 'cash_on_delivery', status: 'cash_due', paidAt: null, reference: null },
    });
    expect(cash).toContain('Payment: cash on delivery, due on delivery.');
    expect(cash).not.toContain('Paid by');
  });

  it('gives the amount in Tamil words on the Tamil invoice, and in English on both (issue #49)', async () => {
    const en = await pdfText(invoice);
    expect(en).toContain('Amount in words: Rupees Twenty Thousand Six Hundred Only');
    expect(en).not.toContain('எழுத்தில்');
    const ta = await pdfText(invoice, 'ta');
    expect(ta).toContain('ரூபாய் இருபதாயிரத்து அறுநூறு மட்டும்');
    expect(ta).toContain('Amount in words: Rupees Twenty Thousand Six Hundred Only');
  });
});
