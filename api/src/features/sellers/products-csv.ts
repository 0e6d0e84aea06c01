import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Knex } from 'knex';
import type { z } from 'zod';
import {
  CSV_LIST_SEPARATORS,
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
import { AppError, badRequest } from '../../http/errors';
import { createProduct, PRODUCT_COLUMNS, updateProduct, type ProductImageOptions } from './product-service';

/** The byte-order mark: spreadsheet programs read the file as UTF-8 (Tamil names, ₹) only with it. */
const BOM = '\uFEFF';

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

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
        return (JSON.parse(String(value)) as string[]).join(CSV_LIST_SEPARATORS.sizeAvailable);
      if (column === 'isCustomMade') return value === 'true' ? 'yes' : 'no';
      return String(value);
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
    const text = raw?.trim() ?? '';
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
  let records: string[][];
  try {
    records = parse(csv, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw badRequest(fill(M.unreadable, { reason }), 'csv_unreadable');
  }
  const [header, ...body] = records;
  if (!header || body.length === 0) throw badRequest(M.empty, 'csv_empty');
  if (body.length > MAX_IMPORT_ROWS) throw badRequest(M.tooManyRows, 'csv_too_many_rows');

  const errors: ProductCsvRowError[] = [];
  const columns: ProductCsvColumn[] = [];
  for (const name of header.map((h) => h.trim())) {
    if (!(PRODUCT_CSV_COLUMNS as readonly string[]).includes(name))
      errors.push({ row: 1, column: null, message: fill(M.unknownColumn, { column: name }) });
    else if (columns.includes(name as ProductCsvColumn))
      errors.push({ row: 1, column: null, message: fill(M.duplicateColumn, { column: name }) });
    columns.push(name as ProductCsvColumn);
  }
  if (errors.length) return { created: 0, updated: 0, errors };

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
  if (errors.length) return { created: 0, updated: 0, errors };

  const result: ProductImportResponse = { created: 0, updated: 0, errors: [] };
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
