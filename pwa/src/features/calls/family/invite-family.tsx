import { Copy, Share2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { FamilyInviteResponse } from '../../../../../api/contract/call-family';
import { buttonClasses } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '../../../components/ui/dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { familyApi } from './family-api';

/**
 * The customer's "Invite family" (issue #52, §21.1): each tap makes a new single-use link, offered through
 * the phone's share sheet (WhatsApp first on an Indian phone), a WhatsApp link and a copy button.
 */
export function InviteFamily({ callId }: { callId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState<(FamilyInviteResponse & { url: string; text: string }) | null>(null);
  const [busy, setBusy] = useState(false);

  const create = async () => {
    setOpen(true);
    setLink(null);
    setBusy(true);
    try {
      const made = await familyApi.invite(callId);
      const url = `${location.origin}${made.path}`;
      const text = made.productName
        ? t('family.invite.shareText', { shop: made.shopName, piece: made.productName, url })
        : t('family.invite.shareTextShop', { shop: made.shopName, url });
      setLink({ ...made, url, text });
    } catch (err) {
      setOpen(false);
      toast.error(translateMessage(errorMessage(err)));
    } finally {
      setBusy(false);
    }
  };
  const share = async () => {
    if (!link) return;
    try {
      await navigator.share({ title: t('family.invite.title'), text: link.text });
    } catch {
      // Dismissed: the link is still there to copy.
    }
  };
  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link.url);
      toast.success(t('family.invite.copied'));
    } catch {
      toast.error(t('family.invite.copyFailed'));
    }
  };
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  return (
    <>
      <button
        type="button"
        onClick={() => void create()}
        data-testid="invite-family"
        className="inline-flex h-10 items-center gap-1.5 rounded-full bg-black/70 px-3 text-sm font-semibold text-white shadow-lg hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
      >
        <UserPlus aria-hidden="true" className="h-4 w-4" />
        {t('family.invite.button')}
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent closeLabel={t('common.close')} className="text-ink" data-testid="invite-dialog">
          <DialogTitle className="pr-8 text-lg font-semibold">{t('family.invite.title')}</DialogTitle>
          <DialogDescription className="mt-1 text-sm text-muted">{t('family.invite.help')}</DialogDescription>
          {busy || !link ? (
            <div className="flex justify-center py-6" role="status" aria-label={t('family.invite.making')}>
              <Spinner className="h-6 w-6" />
            </div>
          ) : (
            <div className="mt-4 flex flex-col gap-3">
              <label className="text-sm font-medium" htmlFor="family-link">
                {t('family.invite.linkLabel')}
              </label>
              <input
                id="family-link"
                readOnly
                value={link.url}
                data-testid="family-link"
                onFocus={(e) => e.currentTarget.select()}
                className="h-10 w-full min-w-0 rounded-md border border-stone-300 px-2 text-sm"
              />
              <div className="flex flex-wrap gap-2">
                {canShare && (
                  <button
                    type="button"
                    onClick={() => void share()}
                    className={buttonClasses('primary', 'md')}
                  >
                    <Share2 aria-hidden="true" className="h-4 w-4" />
                    {t('family.invite.share')}
                  </button>
                )}
                <a
                  href={`https://wa.me/?text=${encodeURIComponent(link.text)}`}
                  target="_blank"
                  rel="noreferrer noopener"
                  className={buttonClasses(canShare ? 'outline' : 'primary', 'md')}
                >
                  {t('family.invite.whatsapp')}
                </a>
                <button type="button" onClick={() => void copy()} className={buttonClasses('outline', 'md')}>
                  <Copy aria-hidden="true" className="h-4 w-4" />
                  {t('family.invite.copy')}
                </button>
              </div>
              <p className="text-xs text-muted">{t('family.invite.once')}</p>
            </div>
          )}
        </DialogContent>
      </Dialog>
    </>
  );
}
