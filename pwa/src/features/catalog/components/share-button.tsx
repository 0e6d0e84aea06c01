import { Link2, MessageCircle, Share2 } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';

/** The WhatsApp link that opens a chat with the text and the address filled in (any contact, any device). */
export function whatsAppHref(text: string, url: string): string {
  return `https://wa.me/?text=${encodeURIComponent(`${text}\n${url}`)}`;
}

const neverChanges = () => () => undefined;
const hasSystemShare = () => typeof navigator.share === 'function';
const absolute = (path: string) => new URL(path, window.location.origin).href;

async function toast(kind: 'success' | 'error', message: string) {
  // sonner loads with the first toast (lib/sonner-bridge.ts), not with the page.
  const { toast: show } = await import('sonner');
  show[kind](message);
}

/** Rendered only in the open menu: the address is made absolute in the browser. */
function WhatsAppLink({ text, path, ...item }: { text: string; path: string }) {
  const { t } = useTranslation();
  return (
    // The menu item's props (role, handlers) arrive through asChild.
    <a {...item} href={whatsAppHref(text, absolute(path))} target="_blank" rel="noopener noreferrer">
      <MessageCircle aria-hidden="true" className="h-4 w-4" />
      {t('catalog.share.whatsapp')}
    </a>
  );
}

/**
 * "Share" for a product or a shop (Indian jewellery is chosen with family): the system share sheet where the
 * browser has one (phones), otherwise a menu with "Share on WhatsApp" and "Copy link". The address shared is the
 * page's own (`path`, made absolute), whose server-rendered tags give the link its preview.
 */
export function ShareButton({ title, text, path }: { title: string; text: string; path: string }) {
  const { t } = useTranslation();
  // Known after hydration only (the server cannot tell), so the first render matches the server's.
  const systemShare = useSyncExternalStore(neverChanges, hasSystemShare, () => false);
  const label = (
    <>
      <Share2 aria-hidden="true" className="h-4 w-4" />
      {t('catalog.share.button')}
    </>
  );

  if (systemShare)
    return (
      <Button
        variant="outline"
        aria-label={t('catalog.share.menu', { name: title })}
        onClick={() => {
          navigator.share({ title, text, url: absolute(path) }).catch(() => {
            // Dismissed (AbortError) or refused: nothing to tell.
          });
        }}
      >
        {label}
      </Button>
    );

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(absolute(path));
      await toast('success', t('catalog.share.copied'));
    } catch {
      await toast('error', t('catalog.share.copyFailed'));
    }
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" aria-label={t('catalog.share.menu', { name: title })}>
          {label}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="min-w-48">
        <DropdownMenuItem asChild>
          <WhatsAppLink text={text} path={path} />
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void copy()}>
          <Link2 aria-hidden="true" className="h-4 w-4" />
          {t('catalog.share.copy')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
