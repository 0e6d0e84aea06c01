import { Link2, MessageCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { absolute, whatsAppHref } from './share-links';

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
 * The menu of "Share" where the browser has no share sheet: "Share on WhatsApp" and "Copy link". Loaded with the
 * first press of the button (share-button.tsx), so it opens at once.
 */
export default function ShareMenu({
  text,
  path,
  ariaLabel,
  label,
}: {
  text: string;
  path: string;
  ariaLabel: string;
  label: ReactNode;
}) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(absolute(path));
      await toast('success', t('catalog.share.copied'));
    } catch {
      await toast('error', t('catalog.share.copyFailed'));
    }
  };
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" aria-label={ariaLabel}>
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
