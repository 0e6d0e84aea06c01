import crypto from 'node:crypto';
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Knex } from 'knex';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream } from 'pdf-lib';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import pLimit from 'p-limit';
import {
  INVALID_IMAGE_MESSAGE,
  MEDIA_PATH_PREFIX,
  MEDIA_RENDITIONS,
  MEDIA_VARIANT_KEY,
  MEDIA_WIDTHS,
  type MediaVariantFormat,
  type StoredImage,
} from '../../../contract/media';
import { PRICING_MESSAGES } from '../../../contract/invoices';
import { MAX_CERTIFICATE_BYTES, TRY_ON, TRY_ON_MESSAGES } from '../../../contract/products';
import { AppError, badRequest } from '../../http/errors';

/** Largest original we accept, from a data URI, a URL or raw bytes. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** Refuses decompression bombs: a tiny file that claims enormous dimensions. */
export const MAX_IMAGE_PIXELS = 40_000_000;
const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

export interface IngestOptions {
  /** Allow URLs that resolve to loopback/private/link-local addresses (tests, local development). */
  allowPrivateUrls?: boolean;
  fetchTimeoutMs?: number;
  /** WebP encoder effort 0–6 (default 4); bulk seeding trades a few bytes for speed with a low value. */
  effort?: number;
}

type RasterFormat = 'png' | 'jpeg' | 'webp' | 'gif';

const DATA_URI = /^data:image\/(png|jpeg|jpg|webp|gif);base64,([A-Za-z0-9+/=\s]+)$/i;

/** Identifies a raster image by its magic bytes; names and declared types are not trusted. */
export function sniffRasterFormat(buf: Buffer): RasterFormat | null {
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 12 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP')
    return 'webp';
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.toString('ascii', 0, 6))) return 'gif';
  return null;
}

const invalid = () => badRequest(INVALID_IMAGE_MESSAGE, 'invalid_image');

// Loopback, private, carrier-grade NAT, link-local, multicast and reserved ranges: never fetched by default.
const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(addr, prefix, 'ipv4');
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['2001:db8::', 32],
] as const)
  blocked.addSubnet(addr, prefix, 'ipv6');

/** True when an IP address is loopback, private, link-local or otherwise not a public internet host. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A DNS lookup that refuses private addresses. It runs for the connection itself, so a host that
 * resolves to a public address when checked and a private one when connecting (DNS rebinding) is caught.
 */
function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      const e: NodeJS.ErrnoException = new Error('refused private address');
      e.code = 'EPRIVATEADDR';
      return callback(e, []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}

/** Fetches an image URL with a size cap, a timeout, a redirect limit and the SSRF guard. */
async function fetchImage(rawUrl: string, opts: IngestOptions): Promise<Buffer> {
  const timeoutMs = opts.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw invalid();
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid();
    if (url.username || url.password) throw invalid();
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!opts.allowPrivateUrls) {
      if (net.isIP(host) ? isPrivateAddress(host) : host === 'localhost' || host.endsWith('.localhost'))
        throw badRequest('The image URL points to a private network address.', 'image_url_refused');
    }
    const result = await requestOnce(url, opts, Math.max(1, deadline - Date.now()));
    if ('redirect' in result) {
      try {
        url = new URL(result.redirect, url);
      } catch {
        throw invalid();
      }
      continue;
    }
    return result.body;
  }
  throw badRequest('The image URL redirected too many times.', 'image_fetch_failed');
}

function requestOnce(
  url: URL,
  opts: IngestOptions,
  timeoutMs: number,
): Promise<{ body: Buffer } | { redirect: string }> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.get(
      url,
      {
        lookup: opts.allowPrivateUrls ? undefined : (guardedLookup as unknown as net.LookupFunction),
        headers: { Accept: 'image/png,image/jpeg,image/webp,image/gif', 'User-Agent': 'Nagai-media/1' },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status >= 300 && status < 400 && res.headers.location) {
          res.resume();
          return resolve({ redirect: res.headers.location });
        }
        if (status !== 200) {
          res.resume();
          return reject(badRequest('The image URL could not be downloaded.', 'image_fetch_failed'));
        }
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > MAX_IMAGE_BYTES) {
          req.destroy();
          return reject(tooLarge());
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_IMAGE_BYTES) {
            req.destroy();
            reject(tooLarge());
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(err));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      reject(badRequest('The image URL took too long to answer.', 'image_fetch_failed'));
    }, timeoutMs);
    req.on('close', () => clearTimeout(timer));
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (err.code === 'EPRIVATEADDR')
        reject(badRequest('The image URL points to a private network address.', 'image_url_refused'));
      else reject(badRequest('The image URL could not be downloaded.', 'image_fetch_failed'));
    });
  });
}

const tooManyPixels = () => badRequest('The image dimensions are too large.', 'image_too_large');
const tooLarge = () => badRequest('The image is larger than 10 MB.', 'image_too_large');

/** Turns a data URI, an http(s) URL or raw bytes into the original image bytes. */
async function loadSource(source: string | Buffer, opts: IngestOptions): Promise<Buffer> {
  if (Buffer.isBuffer(source)) return source;
  const trimmed = source.trim();
  if (/^data:/i.test(trimmed)) {
    const m = DATA_URI.exec(trimmed);
    if (!m) throw invalid();
    // base64 is 4/3 the size of the bytes: refuse before decoding a huge string.
    if (m[2].length > Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 4) throw tooLarge();
    return Buffer.from(m[2], 'base64');
  }
  if (/^https?:\/\//i.test(trimmed)) return fetchImage(trimmed, opts);
  throw invalid();
}

interface Rendition {
  key: string;
  data: Buffer;
  width: number;
  height: number;
}

async function render(
  original: Buffer,
  bounds: { width: number; height: number },
  key: string,
  effort: number,
): Promise<Rendition> {
  const { data, info } = await sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
    .rotate() // applies EXIF orientation; metadata itself is not copied to the output
    .resize(bounds.width, bounds.height, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82, effort })
    .toBuffer({ resolveWithObject: true });
  return { key, data, width: info.width, height: info.height };
}

const urlFor = (key: string) => `${MEDIA_PATH_PREFIX}${key}`;

/**
 * Stores an image: decodes it (real PNG/JPEG/WebP/GIF only), strips metadata, auto-orients and writes WebP
 * card and detail renditions keyed by a content hash. The same input twice returns the same keys.
 */
export async function ingestImage(
  db: Knex,
  source: string | Buffer,
  opts: IngestOptions = {},
): Promise<StoredImage> {
  const original = await loadSource(source, opts);
  if (original.length === 0) throw invalid();
  if (original.length > MAX_IMAGE_BYTES) throw tooLarge();
  if (!sniffRasterFormat(original)) throw invalid();

  const hash = crypto.createHash('sha256').update(original).digest('hex').slice(0, 32);
  const cardKey = `${hash}-card.webp`;
  const detailKey = `${hash}-detail.webp`;
  const placeholderKey = `${hash}-placeholder.webp`;
  const existing = (await db('media')
    .select('key', 'width', 'height', 'data')
    .whereIn('key', [cardKey, detailKey, placeholderKey])) as {
    key: string;
    width: number;
    height: number;
    data: Uint8Array;
  }[];
  const existingCard = existing.find((r) => r.key === cardKey);
  if (existingCard && existing.some((r) => r.key === detailKey)) {
    const stored = existing.find((r) => r.key === placeholderKey);
    const placeholder = stored
      ? asBuffer(stored.data)
      : await storePlaceholder(db, placeholderKey, asBuffer(existingCard.data));
    return {
      key: hash,
      cardUrl: urlFor(cardKey),
      detailUrl: urlFor(detailKey),
      width: existingCard.width,
      height: existingCard.height,
      placeholder: placeholderUri(placeholder),
    };
  }

  let meta: Metadata;
  try {
    meta = await sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' }).metadata();
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw tooManyPixels();
    throw invalid();
  }
  if (!meta.format || !['png', 'jpeg', 'webp', 'gif'].includes(meta.format)) throw invalid();
  if (!meta.width || !meta.height) throw invalid();
  if (meta.width * meta.height > MAX_IMAGE_PIXELS) throw tooManyPixels();

  let card: Rendition;
  let detail: Rendition;
  try {
    [card, detail] = await Promise.all([
      render(original, MEDIA_RENDITIONS.card, cardKey, opts.effort ?? 4),
      render(original, MEDIA_RENDITIONS.detail, detailKey, opts.effort ?? 4),
    ]);
  } catch {
    throw invalid();
  }
  const placeholder = await renderPlaceholder(card.data);
  await db('media')
    .insert(
      [card, detail, { key: placeholderKey, ...placeholder }].map((r) => ({
        key: r.key,
        content_type: 'image/webp',
        width: r.width,
        height: r.height,
        byte_size: r.data.length,
        data: r.data,
      })),
    )
    .onConflict('key')
    .ignore();
  return {
    key: hash,
    cardUrl: urlFor(cardKey),
    detailUrl: urlFor(detailKey),
    width: card.width,
    height: card.height,
    placeholder: placeholderUri(placeholder.data),
  };
}

const asBuffer = (data: Uint8Array): Buffer =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** Longest side of the blurred preview: the browser's smoothing when it scales this up is the blur. */
const PLACEHOLDER_SIZE = 16;

async function renderPlaceholder(card: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(card)
    .resize(PLACEHOLDER_SIZE, PLACEHOLDER_SIZE, { fit: 'inside' })
    .webp({ quality: 40 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Makes the preview of an image stored before previews existed, from its card rendition. */
async function storePlaceholder(db: Knex, key: string, card: Buffer): Promise<Buffer> {
  const p = await renderPlaceholder(card);
  await db('media')
    .insert({
      key,
      content_type: 'image/webp',
      width: p.width,
      height: p.height,
      byte_size: p.data.length,
      data: p.data,
    })
    .onConflict('key')
    .ignore();
  return p.data;
}

const placeholderUri = (data: Buffer) => `data:image/webp;base64,${data.toString('base64')}`;

/**
 * At most two widths are encoded at once per process (AVIF takes 40–150 ms of a core each): a burst of first
 * requests for new widths queues instead of starving the API. Each width is encoded once and then stored.
 */
const encodeSlots = pLimit(2);

/**
 * A derived width of a stored image (`<hash>-w<width>.<webp|avif>`, widths from MEDIA_WIDTHS): made from the
 * detail rendition on first request, stored, and served from the table after that. Null when the key is not a
 * derived width or its image is not stored.
 */
export async function deriveVariant(db: Knex, key: string): Promise<MediaObject | null> {
  const m = MEDIA_VARIANT_KEY.exec(key);
  if (!m) return null;
  const [, hash, w, format] = m as unknown as [string, string, string, MediaVariantFormat];
  const width = Number(w);
  if (!(MEDIA_WIDTHS as readonly number[]).includes(width)) return null;
  const source = await findMedia(db, `${hash}-detail.webp`);
  if (!source) return null;
  const { data, info } = await encodeSlots(() => {
    const resized = sharp(source.data).resize(width, width, { fit: 'inside', withoutEnlargement: true });
    return (
      format === 'avif' ? resized.avif({ quality: 50, effort: 2 }) : resized.webp({ quality: 78, effort: 4 })
    ).toBuffer({ resolveWithObject: true });
  });
  const contentType = `image/${format}`;
  await db('media')
    .insert({
      key,
      content_type: contentType,
      width: info.width,
      height: info.height,
      byte_size: data.length,
      data,
    })
    .onConflict('key')
    .ignore();
  return { key, contentType, data };
}

/**
 * Keys of a PDF dictionary that make a viewer act: scripts (/JS, /JavaScript), actions run on opening or on events
 * (/OpenAction, /AA), launching programs (/Launch), forms that submit or import (/SubmitForm, /ImportData), files
 * carried inside (/EmbeddedFile(s), /RichMedia) and XFA forms (/XFA), which carry scripts of their own.
 */
const ACTIVE_PDF_KEYS = new Set([
  'JS',
  'JavaScript',
  'OpenAction',
  'AA',
  'Launch',
  'SubmitForm',
  'ImportData',
  'EmbeddedFile',
  'EmbeddedFiles',
  'RichMedia',
  'XFA',
]);
const ACTIVE_PDF_ACTIONS = new Set(['JavaScript', 'Launch', 'SubmitForm', 'ImportData', 'RichMediaExecute']);

/**
 * True when the bytes parse as a PDF (pdf-lib, objects in object streams included) and no object of it holds a
 * script, an automatic or event action, a launch, a form submission or an embedded file. A certificate needs none
 * of them; one that has any is refused rather than rewritten.
 */
export async function isInertPdf(bytes: Buffer): Promise<boolean> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      throwOnInvalidObject: true,
      updateMetadata: false,
    });
  } catch {
    return false;
  }
  const active = (dict: PDFDict): boolean => {
    for (const [key, value] of dict.entries()) {
      if (ACTIVE_PDF_KEYS.has(key.decodeText())) return true;
      if (key.decodeText() === 'S' && value instanceof PDFName && ACTIVE_PDF_ACTIONS.has(value.decodeText()))
        return true;
      if (value instanceof PDFDict && active(value)) return true;
      if (value instanceof PDFArray)
        for (const item of value.asArray()) if (item instanceof PDFDict && active(item)) return true;
    }
    return false;
  };
  try {
    // A file with no document catalog is not a PDF, whatever its first bytes say.
    const root = doc.context.trailerInfo.Root ? doc.context.lookup(doc.context.trailerInfo.Root) : undefined;
    if (!(root instanceof PDFDict)) return false;
    for (const [, object] of doc.context.enumerateIndirectObjects()) {
      const dict = object instanceof PDFDict ? object : object instanceof PDFStream ? object.dict : undefined;
      if (dict && active(dict)) return false;
    }
    return !active(root);
  } catch {
    // Nesting too deep to walk, or an object pdf-lib cannot read: not a file we store.
    return false;
  }
}

/**
 * Stores a certificate file (docs/product-rules.md §10): a PDF as it came (it must parse as a PDF and hold no
 * script or action, see isInertPdf), an image
 * as an image's detail rendition. Returns its /media/ path.
 */
export async function storeCertificate(db: Knex, dataUri: string): Promise<string> {
  const m = /^data:([a-z/]+);base64,([A-Za-z0-9+/=\s]+)$/i.exec(dataUri.trim());
  const refused = () => badRequest(PRICING_MESSAGES.certificateFileInvalid, 'invalid_certificate');
  if (!m) throw refused();
  if (m[1]!.toLowerCase() !== 'application/pdf') {
    try {
      return (await ingestImage(db, dataUri)).detailUrl;
    } catch (err) {
      if (err instanceof AppError && err.status === 400) throw refused();
      throw err;
    }
  }
  const bytes = Buffer.from(m[2]!, 'base64');
  if (
    bytes.length === 0 ||
    bytes.length > MAX_CERTIFICATE_BYTES ||
    bytes.subarray(0, 5).toString('latin1') !== '%PDF-'
  )
    throw refused();
  // It must parse as a PDF, and carry nothing a viewer would run (docs/security.md).
  if (!(await isInertPdf(bytes))) throw refused();
  const key = `${crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 32)}-certificate.pdf`;
  await db('media')
    .insert({ key, content_type: 'application/pdf', byte_size: bytes.length, data: bytes })
    .onConflict('key')
    .ignore();
  return urlFor(key);
}

/** Longest side of a stored try-on image: the try-on draws a piece at most a few hundred pixels tall. */
export const TRY_ON_STORED_SIDE = 600;

/** A stored try-on image (docs/product-rules.md §16). */
export interface StoredTryOnImage {
  /** The content hash its media key starts with. */
  key: string;
  url: string;
  width: number;
  height: number;
}

/**
 * Checks and stores a try-on image (docs/product-rules.md §16): the bytes must be a PNG or WebP (by content,
 * whatever the data URI declares), at most TRY_ON.maxBytes, TRY_ON.minSide to TRY_ON.maxSide pixels a side,
 * with an alpha channel that leaves at least TRY_ON.minTransparentShare of the picture see-through and some of
 * it opaque (a piece on a transparent background). Stored as WebP with its alpha, at most TRY_ON_STORED_SIDE a
 * side, metadata stripped, keyed by the content hash (the same picture twice is one object).
 */
export async function storeTryOnImage(
  db: Knex,
  source: string | Buffer,
  opts: { effort?: number } = {},
): Promise<StoredTryOnImage> {
  const refused = () => badRequest(TRY_ON_MESSAGES.imageInvalid, 'invalid_tryon_image');
  let bytes: Buffer;
  if (Buffer.isBuffer(source)) bytes = source;
  else {
    const m = /^data:image\/(png|webp);base64,([A-Za-z0-9+/=\s]+)$/i.exec(source.trim());
    if (!m || m[2]!.length > Math.ceil((TRY_ON.maxBytes * 4) / 3) + 4) throw refused();
    bytes = Buffer.from(m[2]!, 'base64');
  }
  if (bytes.length === 0 || bytes.length > TRY_ON.maxBytes) throw refused();
  const sniffed = sniffRasterFormat(bytes);
  if (sniffed !== 'png' && sniffed !== 'webp') throw refused();

  const hash = crypto.createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  const key = `${hash}-tryon.webp`;
  const input = () => sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' });
  let meta: Metadata;
  try {
    meta = await input().metadata();
  } catch {
    throw refused();
  }
  if (meta.format !== sniffed || !meta.width || !meta.height) throw refused();
  if (
    Math.min(meta.width, meta.height) < TRY_ON.minSide ||
    Math.max(meta.width, meta.height) > TRY_ON.maxSide
  )
    throw refused();
  const notTransparent = () => badRequest(TRY_ON_MESSAGES.notTransparent, 'tryon_image_not_transparent');
  if (!meta.hasAlpha) throw notTransparent();
  // The alpha channel, shrunk: enough to tell a cut-out piece from a filled rectangle.
  let alpha: Buffer;
  try {
    alpha = await input().resize(128, 128, { fit: 'inside' }).extractChannel('alpha').raw().toBuffer();
  } catch {
    throw refused();
  }
  let clear = 0;
  let solid = 0;
  for (const a of alpha) {
    if (a < 32) clear++;
    else if (a > 160) solid++;
  }
  if (clear < alpha.length * TRY_ON.minTransparentShare) throw notTransparent();
  // An empty picture (everything see-through) shows nothing.
  if (solid < alpha.length * 0.005) throw refused();

  const existing = (await db('media').select('width', 'height').where({ key }).first()) as
    { width: number; height: number } | undefined;
  if (existing) return { key: hash, url: urlFor(key), width: existing.width, height: existing.height };
  let out: { data: Buffer; info: OutputInfo };
  try {
    out = await input()
      .resize(TRY_ON_STORED_SIDE, TRY_ON_STORED_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 90, alphaQuality: 100, effort: opts.effort ?? 4 })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw refused();
  }
  await db('media')
    .insert({
      key,
      content_type: 'image/webp',
      width: out.info.width,
      height: out.info.height,
      byte_size: out.data.length,
      data: out.data,
    })
    .onConflict('key')
    .ignore();
  return { key: hash, url: urlFor(key), width: out.info.width, height: out.info.height };
}

/** A stored media object, as served at /media/:key. */
export interface MediaObject {
  key: string;
  contentType: string;
  data: Buffer;
}

/** Loads one stored media object by key, or null. */
export async function findMedia(db: Knex, key: string): Promise<MediaObject | null> {
  const row = (await db('media').select('key', 'content_type', 'data').where({ key }).first()) as
    { key: string; content_type: string; data: Uint8Array } | undefined;
  if (!row) return null;
  return { key: row.key, contentType: row.content_type, data: asBuffer(row.data) };
}

/** True when a media key exists (used to skip the bytes on a conditional request). */
export async function mediaExists(db: Knex, key: string): Promise<boolean> {
  return !!(await db('media').select('key').where({ key }).first());
}
