import { parse as parseStream, type CastingContext } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  CSV_LIST_SEPARATORS,
  MAX_IMPORT_COLUMNS,
  MAX_IMPORT_ERRORS,
  MAX_IMPORT_ROWS,
  PRODUCT_CSV_COLUMNS,
  PRODUCT_CSV_MESSAGES as M,
  REQUIRED_CSV_COLUMNS,
  type ProductCsvColumn,
  type ProductCsvRowError,
  type ProductImportResponse,
} from '../../../contract/products-csv';
import {
  ProductCreateSchema,
  ProductUpdateSchema,
  type ProductCreateInput,
  type ProductUpdateInput,
} from '../../../contract/products';
import type { SessionUser } from '../../http/context';
import { AppError, badRequest, forbidden } from '../../http/errors';
import { findProfileByUser } from './service';
import { createProduct, PRODUCT_COLUMNS, updateProduct, type ProductImageOptions } from './product-service';

/** The byte-order mark: spreadsheet programs read the file as UTF-8 (Tamil names, ₹) only with it. */
const BOM = '\uFEFF';

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/**
 * A cell a spreadsheet would run as a formula (it starts with =, +, -, @, tab or CR) is written with a leading
 * apostrophe, as OWASP advises for CSV injection: the spreadsheet shows it as text. An import takes the apostrophe
 * off again, so an exported file imports unchanged.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
export const neutraliseCell = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);
const restoreCell = (value: string) =>
  value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;

/** The shop's live products as CSV, one row each in id order, with the columns of PRODUCT_CSV_COLUMNS. */
export async function exportProductsCsv(db: Knex, user: SessionUser): Promise<string> {
  const fields = Object.entries(PRODUCT_COLUMNS);
  const rows = (await db('products as p')
    .where({ 'p.seller_id': user.id })
    .whereNull('p.deleted_at')
    .orderBy('p.id')
    .select(
      'p.id',
      // Decimals as text: exactly what is stored, never a float.
      ...fields.map(([field, column]) => db.raw(`p.${column}::text as "${field}"`)),
      db.raw(
        `(select coalesce(string_agg(i.detail_url, ' ' order by i.position), '') from product_images i
          where i.product_id = p.id) as images`,
      ),
    )) as Record<string, string | number | null>[];
  const records = rows.map((r) =>
    PRODUCT_CSV_COLUMNS.map((column) => {
      const value = r[column];
      if (value === null || value === undefined) return '';
      if (column === 'sizeAvailable')
        return neutraliseCell(
          (JSON.parse(String(value)) as string[]).join(CSV_LIST_SEPARATORS.sizeAvailable),
        );
      if (column === 'isCustomMade') return value === 'true' ? 'yes' : 'no';
      return neutraliseCell(String(value));
    }),
  );
  return BOM + stringify([[...PRODUCT_CSV_COLUMNS], ...records]);
}

type Cell = string | undefined;

/** One row's cells as the product API's input: blank is "not given" on create, "cleared" on update. */
function toInput(cells: Map<ProductCsvColumn, Cell>, updating: boolean): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const rate = cells.get('pricingMode')?.trim() === 'rate';
  for (const [column, raw] of cells) {
    if (column === 'id') continue;
    // A rate-linked product's price follows the shop's rate: the exported price is for reading only.
    if (column === 'price' && rate) continue;
    const text = restoreCell(raw?.trim() ?? '');
    if (text === '') {
      if (updating && !REQUIRED_CSV_COLUMNS.includes(column) && column !== 'pricingMode')
        input[column] = null;
      continue;
    }
    if (column === 'sizeAvailable')
      input[column] = text
        .split(CSV_LIST_SEPARATORS.sizeAvailable)
        .map((s) => s.trim())
        .filter(Boolean);
    else if (column === 'images') input[column] = text.split(/\s+/);
    else if (column === 'isCustomMade') {
      const yes = /^(yes|true|1)$/i.test(text);
      const no = /^(no|false|0)$/i.test(text);
      input[column] = yes ? true : no ? false : text; // anything else fails the schema, reported below
    } else input[column] = text;
  }
  return input;
}

function rowErrors(row: number, error: z.ZodError): ProductCsvRowError[] {
  return error.issues.map((issue) => {
    const column = issue.path[0];
    const known = (PRODUCT_CSV_COLUMNS as readonly unknown[]).includes(column);
    const message = column === 'isCustomMade' && issue.code === 'invalid_type' ? M.yesNo : issue.message;
    return { row, column: known ? (column as ProductCsvColumn) : null, message };
  });
}

/** Characters parsed between two turns of the event loop: other requests run while a large file is read. */
const PARSE_CHUNK_CHARS = 64 * 1024;

class TooManyCells extends Error {
  constructor(readonly row: number) {
    super('too many cells');
  }
}

/**
 * Parses the file in chunks, yielding to the event loop between them, and stops at the first row with more than
 * MAX_IMPORT_COLUMNS cells or past MAX_IMPORT_ROWS products: the work is bounded by the file's size (≤ 2 MB) and no
 * chunk holds the process for long.
 */
async function parseCsv(csv: string): Promise<string[][]> {
  const records: string[][] = [];
  let failure: unknown;
  const parser = parseStream({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    to: MAX_IMPORT_ROWS + 2,
    cast: (value: string, context: CastingContext) => {
      if (context.index >= MAX_IMPORT_COLUMNS) throw new TooManyCells(context.lines);
      return value;
    },
  });
  parser.on('readable', () => {
    for (let r = parser.read() as string[] | null; r !== null; r = parser.read() as string[] | null)
      records.push(r);
  });
  const finished = new Promise<void>((resolve) => {
    parser.on('end', resolve);
    parser.on('error', (err) => {
      failure = err;
      resolve();
    });
  });
  // The parser ends itself after `to` records, or stops at an error.
  const stopped = () => failure !== undefined || parser.writableEnded || parser.destroyed;
  for (let at = 0; at < csv.length && !stopped(); at += PARSE_CHUNK_CHARS) {
    parser.write(csv.slice(at, at + PARSE_CHUNK_CHARS));
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (!stopped()) parser.end();
  await finished;
  if (failure !== undefined) {
    // csv-parse wraps an error thrown by `cast`; find ours.
    const cause = (failure as { cause?: unknown }).cause ?? failure;
    if (cause instanceof TooManyCells || failure instanceof TooManyCells) {
      const row = cause instanceof TooManyCells ? cause.row : (failure as TooManyCells).row;
      throw badRequest(fill(M.tooManyColumns, { row: String(row) }), 'csv_too_many_columns');
    }
    const reason = failure instanceof Error ? failure.message : String(failure);
    throw badRequest(fill(M.unreadable, { reason }), 'csv_unreadable');
  }
  return records;
}

/** The problems of an import: the first MAX_IMPORT_ERRORS are kept, the rest only counted. */
class Problems {
  readonly list: ProductCsvRowError[] = [];
  count = 0;
  push(...errors: ProductCsvRowError[]) {
    for (const e of errors) {
      if (this.list.length < MAX_IMPORT_ERRORS) this.list.push(e);
      this.count++;
    }
  }
  answer(): ProductImportResponse {
    return { created: 0, updated: 0, errors: this.list, errorCount: this.count };
  }
}

type Planned =
  | { row: number; kind: 'create'; input: ProductCreateInput }
  | { row: number; kind: 'update'; input: ProductUpdateInput };

/**
 * Adds and changes the shop's products from a CSV file (docs/product-rules.md "Products as CSV"). Every row is
 * checked first with the product API's own rules; if any row is wrong, nothing is written and every problem is
 * listed by row and column. Otherwise each row is saved as the product form would save it.
 */
export async function importProductsCsv(
  db: Knex,
  user: SessionUser,
  csv: string,
  now: Date,
  images: ProductImageOptions,
): Promise<ProductImportResponse> {
  // Importing writes up to a thousand products at once: only an approved shop may (an admin into their own).
  const profile = await findProfileByUser(db, user.id);
  if (user.role !== 'admin' && profile?.is_approved !== true)
    throw forbidden(M.shopNotApproved, 'shop_not_approved');
  const records = await parseCsv(csv);
  const [header, ...body] = records;
  if (!header || body.length === 0) throw badRequest(M.empty, 'csv_empty');
  if (body.length > MAX_IMPORT_ROWS) throw badRequest(M.tooManyRows, 'csv_too_many_rows');

  const errors = new Problems();
  const columns: ProductCsvColumn[] = [];
  for (const name of header.map((h) => h.trim())) {
    if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name))
      errors.push({ row: 1, column: null, message: fill(M.unknownColumn, { column: name }) });
    else if (columns.includes(name as ProductCsvColumn))
      errors.push({ row: 1, column: null, message: fill(M.duplicateColumn, { column: name }) });
    columns.push(name as ProductCsvColumn);
  }
  if (errors.count) return errors.answer();

  // Ids must be this shop's live products (an admin imports into their own shop too), each once.
  const idIndex = columns.indexOf('id');
  const givenIds =
    idIndex < 0 ? [] : body.map((r) => Number(r[idIndex]?.trim())).filter(Number.isSafeInteger);
  const ownIds = new Set(
    givenIds.length === 0
      ? []
      : ((await db('products')
          .whereIn(
            'id',
            givenIds.filter((id) => id > 0 && id <= 2_147_483_647),
          )
          .where({ seller_id: user.id })
          .whereNull('deleted_at')
          .pluck('id')) as number[]),
  );

  const planned: Planned[] = [];
  const seen = new Set<number>();
  body.forEach((record, i) => {
    const row = i + 2; // as a spreadsheet numbers it, the header being row 1
    const cells = new Map<ProductCsvColumn, Cell>(columns.map((c, k) => [c, record[k]]));
    const idText = cells.get('id')?.trim() ?? '';
    if (idText === '') {
      const parsed = ProductCreateSchema.safeParse(toInput(cells, false));
      if (parsed.success) planned.push({ row, kind: 'create', input: parsed.data });
      else errors.push(...rowErrors(row, parsed.error));
      return;
    }
    const id = Number(idText);
    if (!/^\d+$/.test(idText) || !ownIds.has(id)) {
      errors.push({ row, column: 'id', message: M.notYours });
      return;
    }
    if (seen.has(id)) {
      errors.push({ row, column: 'id', message: M.duplicateId });
      return;
    }
    seen.add(id);
    const parsed = ProductUpdateSchema.safeParse({ id, ...toInput(cells, true) });
    if (parsed.success) planned.push({ row, kind: 'update', input: parsed.data });
    else errors.push(...rowErrors(row, parsed.error));
  });
  if (errors.count) return errors.answer();

  const result: ProductImportResponse = { created: 0, updated: 0, errors: [], errorCount: 0 };
  for (const p of planned) {
    try {
      if (p.kind === 'create') {
        await createProduct(db, user, p.input, now, images);
        result.created++;
      } else {
        await updateProduct(db, user, p.input, now, images);
        result.updated++;
      }
    } catch (err) {
      // A rule only the stored product can check, or an image that would not download: this row is not saved.
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      const column = (err.issues?.[0]?.path ?? null) as ProductCsvColumn | null;
      result.errorCount++;
      if (result.errors.length < MAX_IMPORT_ERRORS)
        result.errors.push({
          row: p.row,
          column: (PRODUCT_CSV_COLUMNS as readonly unknown[]).includes(column) ? column : null,
          message: err.message,
          saved: false,
        });
    }
  }
  return result;
}
