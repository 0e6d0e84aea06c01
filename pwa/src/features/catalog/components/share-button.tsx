import { Share2 } from 'lucide-react';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { absolute } from './share-links';

const neverChanges = () => () => undefined;
const hasSystemShare = () => typeof navigator.share === 'function';
const loadMenu = () => import('./share-menu');
// The menu (Radix's, with its positioning) is not part of the page: it loads when the button is pressed.
const ShareMenu = lazy(loadMenu);

/**
 * "Share" for a product or a shop (Indian jewellery is chosen with family): the system share sheet where the
 * browser has one (phones), otherwise a menu with "Share on WhatsApp" and "Copy link" (share-menu.tsx). The
 * address shared is the page's own (`path`, made absolute), whose server-rendered tags give the link its preview.
 */
export function ShareButton({ title, text, path }: { title: string; text: string; path: string }) {
  const { t } = useTranslation();
  // Known after hydration only (the server cannot tell), so the first render matches the server's.
  const systemShare = useSyncExternalStore(neverChanges, hasSystemShare, () => false);
  const [menu, setMenu] = useState(false);
  const ariaLabel = t('catalog.share.menu', { name: title });
  const label = (
    <>
      <Share2 aria-hidden="true" className="h-4 w-4" />
      {t('catalog.share.button')}
    </>
  );
  const button = (onClick?: () => void) => (
    <Button
      variant="outline"
      aria-label={ariaLabel}
      aria-haspopup={systemShare ? undefined : 'menu'}
      aria-expanded={systemShare ? undefined : false}
      onPointerEnter={systemShare ? undefined : () => void loadMenu()}
      onClick={onClick}
    >
      {label}
    </Button>
  );

  // The press decides by what the browser has now, not by the last render: a press in the moment between
  // hydration (which renders the server's answer, no sheet) and the render that learns of the sheet must still
  // open the sheet, not a menu the next render would hide.
  const press = () => {
    if (!hasSystemShare()) {
      setMenu(true);
      return;
    }
    navigator.share({ title, text, url: absolute(path) }).catch(() => {
      // Dismissed (AbortError) or refused: nothing to tell.
    });
  };
  if (systemShare || !menu) return button(press);
  return (
    <Suspense fallback={button()}>
      <ShareMenu text={text} path={path} ariaLabel={ariaLabel} label={label} />
    </Suspense>
  );
}
