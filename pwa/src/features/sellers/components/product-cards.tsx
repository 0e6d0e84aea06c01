import { Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../../api/contract/catalog';
import { Button } from '../../../components/ui/button';
import { formatPrice } from '../../../lib/format';
import { productValueLabel } from '../utils/product-labels';

/**
 * The seller's products on a phone (below the `md` width, where the table does not fit): one card a product
 * with its picture, name, category and material, price and stock, and Edit and Delete as labelled buttons
 * within the screen's width (issue #48, docs/product-rules.md "Seller screens on a phone").
 */
export function ProductCards({
  products,
  busy,
  label,
  onEdit,
  onDelete,
}: {
  products: Product[];
  busy: boolean;
  label: string;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul aria-label={label} className="divide-y divide-stone-200" data-testid="product-cards">
      {products.map((p) => (
        <li key={p.id} aria-busy={busy || undefined} className="space-y-3 p-4" data-testid="product-card">
          <div className="flex min-w-0 gap-3">
            {p.imageUrl ? (
              <img
                src={p.imageUrl}
                alt=""
                loading="lazy"
                className="h-16 w-16 shrink-0 rounded-md bg-stone-100 object-cover"
              />
            ) : (
              <div aria-hidden="true" className="h-16 w-16 shrink-0 rounded-md bg-stone-100" />
            )}
            <div className="min-w-0 flex-1 space-y-1">
              <h2 className="text-base font-medium break-words text-ink">{p.name}</h2>
              <p className="text-sm break-words text-muted">
                {productValueLabel(t, 'category', p.category)} ·{' '}
                {productValueLabel(t, 'material', p.material)}
              </p>
              <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                <span className="font-semibold text-ink" data-testid="product-card-price">
                  {formatPrice(p.price, t('common.priceNotAvailable'))}
                </span>
                <span className="text-muted">
                  {p.stockQuantity === null
                    ? t('sellerPhone.products.stockNotCounted')
                    : t('sellerPhone.products.stock', { count: p.stockQuantity })}
                </span>
              </p>
            </div>
          </div>
          <div className="grid grid-cols-2 gap-2">
            <Button variant="outline" onClick={() => onEdit(p)}>
              <Pencil aria-hidden="true" className="h-4 w-4" />
              {/* The visible word first, then the piece's name for a screen reader ("Edit Kasu Mala"). */}
              {t('sellerPhone.products.edit')}
              <span className="sr-only"> {p.name}</span>
            </Button>
            <Button
              variant="outline"
              onClick={() => onDelete(p)}
              className="border-red-200 text-red-800 hover:bg-red-50"
            >
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t('sellerPhone.products.delete')}
              <span className="sr-only"> {p.name}</span>
            </Button>
          </div>
        </li>
      ))}
    </ul>
  );
}
