import { i18n } from '../../../lib/i18n';
import { formatCategory } from '../../../lib/format';

/**
 * A product's detail values in the reader's language (issue #40 item 8, docs/product-rules.md §8): the
 * category and material from their lists (`catalog.categories`, `catalog.materials`), a purity ("22K" →
 * "22 கேரட்"), the named stones and alloys the jewellers use (`catalog.values`, looked up by the English text's
 * words) and the units of weights and sizes. A value nobody translated (a jeweller's own text, a grade code
 * such as VVS-EF) is shown as it was written.
 */
export type ValueKind = 'category' | 'material' | 'purity' | 'text';

/** The key of a free text in `catalog.values`: its words, lower case, joined by underscores. */
export const valueKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

export function translateValue(kind: ValueKind, value: string): string {
  const t = (key: string, fallback: string, values: Record<string, unknown> = {}) =>
    i18n.t(key, { ...values, defaultValue: fallback });
  if (kind === 'category') return t(`catalog.categories.${value}`, formatCategory(value));
  if (kind === 'material') return t(`catalog.materials.${value}`, formatCategory(value));
  const v = value.trim();
  if (kind === 'purity') {
    const karat = /^(\d{2})\s*K$/i.exec(v);
    if (karat) return t('catalog.values.karat', v, { n: karat[1] });
    const platinum = /^PT\s*(\d{3})$/i.exec(v);
    if (platinum) return t('catalog.values.platinumPurity', v, { n: platinum[1] });
  }
  const key = valueKey(v);
  return key ? t(`catalog.values.${key}`, v) : v;
}

/** A measure with its unit in the reader's language: 8.5 g, 12 mm, 0.5 ct. */
export function formatMeasure(unit: 'grams' | 'millimetres' | 'carats', n: number | string): string {
  return i18n.t(`catalog.values.${unit}`, { n, defaultValue: `${n}` });
}
