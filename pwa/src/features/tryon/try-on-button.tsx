import { Sparkles } from 'lucide-react';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../../api/contract/catalog';
import { Button } from '../../components/ui/button';
import { LocaleGate } from '../../lib/locale-gate';
import { tryOnKind } from './geometry';

// The camera, the model's loader and the drawing load on the first tap, not with the page.
const TryOnDialog = lazy(() => import('./try-on-dialog'));

function TryOnAction({ product }: { product: Product }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="lg" variant="outline" onClick={() => setOpen(true)}>
        <Sparkles aria-hidden="true" className="h-5 w-5" />
        {t('catalog.tryOn.button')}
      </Button>
      {open && (
        <Suspense fallback={null}>
          <TryOnDialog product={product} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

const noChange = () => () => undefined;
const inBrowser = () => true;
const onServer = () => false;

/** "Try it on" on a product page and in the product dialog, for earrings, nose pins, necklaces and pendants. */
export default function TryOnButton({ product }: { product: Product }) {
  // Shown once the app runs (never in the server's markup): a camera needs the app, and a tap before then
  // would be lost.
  const running = useSyncExternalStore(noChange, inBrowser, onServer);
  if (!running || !tryOnKind(product.category)) return null;
  return (
    <Suspense fallback={null}>
      <LocaleGate areas={['catalogTryOn']}>
        <TryOnAction product={product} />
      </LocaleGate>
    </Suspense>
  );
}
