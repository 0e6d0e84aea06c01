import { useQuery } from '@tanstack/react-query';
import { ShoppingCart } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import type { Product } from '../../../../../api/contract/catalog';
import { Button, buttonClasses } from '../../../components/ui/button';
import { sessionQuery } from '../../../lib/session';
import { useAddToCartMutation } from '../api';
import { notifyFailure, notifySuccess } from '../notify';

/**
 * Add to Cart in the product dialog (extension `productDialogActions`): customers only; visitors are asked to
 * log in (and come back here); sellers and admins see nothing.
 */
export default function AddToCartButton({ product }: { product: Product }) {
  const { t } = useTranslation();
  const session = useQuery(sessionQuery());
  const location = useLocation();
  const add = useAddToCartMutation();

  if (session.isPending) return null;
  const user = session.data;
  if (!user) {
    const here = location.pathname + location.search + location.hash;
    return (
      <Link
        to={`/customer/login?redirect=${encodeURIComponent(here)}`}
        className={buttonClasses('outline', 'lg')}
      >
        {t('cart.loginToBuy')}
      </Link>
    );
  }
  if (user.role !== 'customer') return null;

  const outOfStock = product.stockQuantity !== null && product.stockQuantity <= 0;
  return (
    <Button
      size="lg"
      disabled={outOfStock || add.isPending}
      aria-busy={add.isPending || undefined}
      onClick={() =>
        add.mutate(
          { productId: product.id, quantity: 1 },
          {
            onSuccess: () => notifySuccess('messages.cart.added'),
            onError: (err) => notifyFailure('messages.cart.addFailed', err),
          },
        )
      }
    >
      <ShoppingCart aria-hidden="true" className="h-5 w-5" />
      {outOfStock ? t('cart.outOfStock') : add.isPending ? t('cart.adding') : t('cart.addToCart')}
    </Button>
  );
}
