import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Product } from '../../api/contract/catalog';
import { PRICING_MESSAGES } from '../../api/contract/invoices';
import type { ProductMutationResponse } from '../../api/contract/products';
import { buildSeller } from '../factories';
import { startTestApi, type ApiClient, type TestApi } from '../support/api';
import { signIn } from './checkout-support';

/** A diamond or gemstone certificate's file, PDF or image (docs/product-rules.md §10). */
let api: TestApi;
let asShop: ApiClient;
let image: string;
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);
const pdfUri = (bytes: Buffer) => `data:application/pdf;base64,${bytes.toString('base64')}`;

beforeAll(async () => {
  api = await startTestApi();
  asShop = await signIn(api, await buildSeller(api.db.knex));
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#d4af37' } })
    .png()
    .toBuffer();
  image = `data:image/png;base64,${png.toString('base64')}`;
});
afterAll(async () => api?.close());

const ring = (overrides: Record<string, unknown> = {}) => ({
  name: 'Solitaire ring',
  description: 'A certified solitaire in 18K white gold.',
  price: '85000',
  category: 'rings',
  material: 'diamond',
  images: [image],
  certificateLab: 'IGI',
  certificateNumber: 'LG512345678',
  ...overrides,
});

type Answer = ProductMutationResponse & { error?: string; issues?: { path: string; message: string }[] };
const create = (body: Record<string, unknown>) => asShop.post<Answer>('/_api/products/create', body);
const update = (body: Record<string, unknown>) => asShop.post<Answer>('/_api/products/update', body);
const mediaCount = async () => Number((await api.db.knex('media').count('* as n'))[0]!.n);

describe('certificate files', () => {
  it('stores a PDF as it came, shows it with the certificate and serves it as a download', async () => {
    const res = await create(ring({ certificateFile: pdfUri(PDF) }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const certificate = (res.body.product as Product).certificate!;
    expect(certificate).toMatchObject({ lab: 'IGI', number: 'LG512345678' });
    expect(certificate.fileUrl).toMatch(/^\/media\/[0-9a-f]{32}-certificate\.pdf$/);

    const file = await fetch(api.url + certificate.fileUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="certificate.pdf"');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.from(await file.arrayBuffer()).equals(PDF)).toBe(true);

    // The public product shows it too.
    const shown = await api.client().get<{ product: Product }>(`/_api/products/get?id=${res.body.productId}`);
    expect(shown.body.product.certificate?.fileUrl).toBe(certificate.fileUrl);
  });

  it('stores a photo of the certificate as an image', async () => {
    const res = await create(ring({ certificateFile: image }));
    expect(res.status).toBe(201);
    expect((res.body.product as Product).certificate!.fileUrl).toMatch(
      /^\/media\/[0-9a-f]{32}-detail\.webp$/,
    );
  });

  it('refuses a PDF that would run something (JavaScript, open and launch actions) or does not parse (#34)', async () => {
    const before = await mediaCount();
    const openJs = Buffer.from(
      '%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R /OpenAction 3 0 R>> endobj\n' +
        '2 0 obj <</Type /Pages /Kids [] /Count 0>> endobj\n' +
        '3 0 obj <</S /JavaScript /JS (app.alert\\(document.cookie\\))>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
    );
    // Written by a real PDF library, the action inside a compressed object stream.
    const packed = await PDFDocument.create();
    packed.addPage();
    packed.catalog.set(
      PDFName.of('OpenAction'),
      packed.context.register(packed.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert(1)') })),
    );
    const launch = await PDFDocument.create();
    launch.addPage();
    launch
      .getPage(0)
      .node.set(PDFName.of('AA'), launch.context.obj({ O: { S: 'Launch', F: PDFString.of('calc.exe') } }));
    const names = await PDFDocument.create();
    names.addPage();
    names.catalog.set(
      PDFName.of('Names'),
      names.context.obj({
        JavaScript: { Names: [PDFString.of('a'), { S: 'JavaScript', JS: PDFString.of('1') }] },
      }),
    );
    for (const bytes of [
      openJs,
      Buffer.from(await packed.save()),
      Buffer.from(await launch.save({ useObjectStreams: false })),
      Buffer.from(await names.save()),
      Buffer.from('%PDF-1.7 and then nothing a PDF reader could use'),
    ]) {
      const res = await create(ring({ certificateFile: pdfUri(bytes) }));
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(PRICING_MESSAGES.certificateFileInvalid);
    }
    expect(await mediaCount()).toBe(before);
    // A plain certificate made by a PDF library is stored.
    const plain = await PDFDocument.create();
    plain.addPage().drawText('IGI LG512345678');
    expect((await create(ring({ certificateFile: pdfUri(Buffer.from(await plain.save())) }))).status).toBe(
      201,
    );
  });

  it('refuses what is not a PDF or an image, a file without its certificate number, and a file over 5 MB', async () => {
    const before = await mediaCount();
    const html = await create(
      ring({ certificateFile: pdfUri(Buffer.from('<html><script>alert(1)</script>')) }),
    );
    expect(html.status).toBe(400);
    expect(html.body.error).toBe(PRICING_MESSAGES.certificateFileInvalid);
    const svg = await create(
      ring({ certificateFile: `data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}` }),
    );
    expect(svg.status).toBe(400);
    const alone = await create(
      ring({ certificateLab: null, certificateNumber: null, certificateFile: pdfUri(PDF) }),
    );
    expect(alone.status).toBe(400);
    expect(alone.body.issues).toContainEqual({
      path: 'certificateFile',
      message: PRICING_MESSAGES.certificateFileWithoutNumber,
    });
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024)]);
    const huge = await create(ring({ certificateFile: pdfUri(big) }));
    expect(huge.status).toBe(400);
    expect(await mediaCount()).toBe(before);
  });

  it('an edit keeps the file by its path, removes it with null, and never takes another product’s', async () => {
    const first = await create(ring({ certificateFile: pdfUri(PDF) }));
    const other = await create(ring({ certificateFile: image }));
    const id = first.body.productId;
    const url = (first.body.product as Product).certificate!.fileUrl!;

    const kept = await update({ id, certificateFile: url, name: 'Solitaire ring, 1 ct' });
    expect(kept.status).toBe(200);
    expect((kept.body.product as Product).certificate!.fileUrl).toBe(url);

    const stolen = await update({
      id,
      certificateFile: (other.body.product as Product).certificate!.fileUrl,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe(PRICING_MESSAGES.certificateFileInvalid);

    // The number cannot go while the file stays.
    const orphan = await update({ id, certificateLab: null, certificateNumber: null });
    expect(orphan.status).toBe(400);
    expect(orphan.body.error).toBe(PRICING_MESSAGES.certificateFileWithoutNumber);

    const removed = await update({ id, certificateFile: null });
    expect(removed.status).toBe(200);
    expect((removed.body.product as Product).certificate!.fileUrl).toBeNull();
  });
});
