import type { TFunction } from 'i18next';
import { formatCategory } from '../../../lib/format';

/**
 * A category or material as a jeweller reads it in the seller's screens ("Bridal sets", "Temple jewellery",
 * "மணப்பெண் நகைத் தொகுப்பு"), from `sellerPhone.categories` and `sellerPhone.materials`. The stored value
 * ("bridal_sets") never changes; a value with no label shows as written, underscores as spaces.
 */
export function productValueLabel(t: TFunction, kind: 'category' | 'material', value: string): string {
  const list = kind === 'category' ? 'categories' : 'materials';
  return t(`sellerPhone.${list}.${value}`, { defaultValue: formatCategory(value) });
}
