import { z } from 'zod';

/**
 * A shop's products as a CSV file (issue #25 §5, docs/product-rules.md "Products as CSV"): the export has these
 * columns in this order; an import needs a header row naming some of them (any order) and `id` to change a
 * product rather than add one.
 */
export const PRODUCT_CSV_COLUMNS = [
  'id',
  'name',
  'description',
  'category',
  'material',
  'price',
  'stockQuantity',
  'sku',
  'pricingMode',
  'metal',
  'metalPurity',
  'netWeight',
  'weight',
  'makingType',
  'makingValue',
  'makingCharges',
  'stoneCharges',
  'discountAmount',
  'gstAmount',
  'huid',
  'certificateLab',
  'certificateNumber',
  'purity',
  'size',
  'width',
  'height',
  'diamondsTotalCount',
  'diamondsType',
  'diamondsTotalWeight',
  'gemstoneTotalCount',
  'gemstoneType',
  'sizeAvailable',
  'isCustomMade',
  'images',
] as const;
export type ProductCsvColumn = (typeof PRODUCT_CSV_COLUMNS)[number];

/** Columns a product cannot be without: blank in an update means "unchanged", never "cleared". */
export const REQUIRED_CSV_COLUMNS: readonly ProductCsvColumn[] = [
  'name',
  'description',
  'category',
  'material',
  'price',
  'images',
];

/** Rows (products) one import may carry. */
export const MAX_IMPORT_ROWS = 1000;
/** Cells one row may have: an exported file has PRODUCT_CSV_COLUMNS.length; a few more leave room for a note. */
export const MAX_IMPORT_COLUMNS = 64;
/** Problems one answer lists (the first ones, in file order); `errorCount` says how many there were in all. */
export const MAX_IMPORT_ERRORS = 100;
/** Characters of CSV one import may carry (about 2 MB): images come as URLs, never inline. */
export const MAX_IMPORT_CHARS = 2_000_000;

/** How several values share one cell. */
export const CSV_LIST_SEPARATORS = { sizeAvailable: '|', images: ' ' } as const;

export const PRODUCT_CSV_MESSAGES = {
  empty: 'The file has no products. The first row names the columns; each row after it is a product.',
  unreadable: 'The file is not a CSV file we can read: {reason}',
  unknownColumn: 'Unknown column "{column}". Use the columns of an exported file.',
  duplicateColumn: 'The column "{column}" appears twice.',
  tooManyRows: `At most ${MAX_IMPORT_ROWS} products per file.`,
  tooManyColumns: `Row {row} has more than ${MAX_IMPORT_COLUMNS} columns. Use the columns of an exported file.`,
  shopNotApproved: 'Your shop must be approved before you can import products from a file.',
  tooLarge: 'The file is too large (at most 2 MB). Split it into smaller files.',
  notYours: 'No product with this id in your shop.',
  duplicateId: 'This id appears in an earlier row too.',
  yesNo: 'Use yes or no.',
} as const;

/** POST /_api/seller/products/import: the file's text. */
export const ProductImportSchema = z.strictObject({
  csv: z.string({ error: PRODUCT_CSV_MESSAGES.empty }).max(MAX_IMPORT_CHARS, PRODUCT_CSV_MESSAGES.tooLarge),
});
export type ProductImportInput = z.infer<typeof ProductImportSchema>;

/** A problem with one row: its row number as a spreadsheet shows it (the header is row 1), and the column. */
export interface ProductCsvRowError {
  row: number;
  column: ProductCsvColumn | null;
  message: string;
}

/**
 * The result of an import. When any row is invalid nothing is written (`created` and `updated` are 0). A row
 * that was valid but failed while it was saved (an image URL that would not download) is listed with
 * `saved: false`; the rows before and after it are saved. At most MAX_IMPORT_ERRORS problems are listed.
 */
export interface ProductImportResponse {
  created: number;
  updated: number;
  /** The first MAX_IMPORT_ERRORS problems. */
  errors: (ProductCsvRowError & { saved?: false })[];
  /** How many problems there were in all (more than `errors.length` when the list was cut). */
  errorCount: number;
}
