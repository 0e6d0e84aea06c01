import * as Switch from '@radix-ui/react-switch';
import { Video } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { SellerProfile } from '../../../../../api/contract/sellers';
import { useExtensions } from '../../../app/extensions';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useUpdateSellerProfileMutation } from '../api';

/**
 * The #video-settings section: the videoCallEnabled switch (saved at once, with a toast) and whatever other
 * features add to the seller's video settings (e.g. ringing by push).
 */
export function VideoSettings({ profile }: { profile: SellerProfile }) {
  const { t } = useTranslation();
  const id = useId();
  const update = useUpdateSellerProfileMutation();
  const { sellerVideoSettings } = useExtensions();
  // While saving, show the state asked for; the server's answer replaces it.
  const checked = update.isPending ? Boolean(update.variables?.videoCallEnabled) : profile.videoCallEnabled;

  const onCheckedChange = (next: boolean) => {
    update.mutate(
      { videoCallEnabled: next },
      {
        onSuccess: () => toast.success(t(next ? 'seller.video.turnedOn' : 'seller.video.turnedOff')),
        onError: (err) =>
          toast.error(t('seller.video.failed'), { description: translateMessage(errorMessage(err)) }),
      },
    );
  };

  return (
    <section id="video-settings" aria-labelledby={`${id}-title`} className="scroll-mt-20">
      <Card>
        <CardHeader>
          <CardTitle id={`${id}-title`} className="flex items-center gap-2 text-lg">
            <Video aria-hidden="true" className="h-5 w-5 text-brand-700" />
            {t('seller.video.title')}
          </CardTitle>
          <CardDescription>{t('seller.video.description')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          <div className="flex items-center justify-between gap-4 rounded-lg border border-stone-200 p-4">
            <div>
              <label htmlFor={id} className="font-medium text-ink">
                {t('seller.video.toggle')}
              </label>
              <p id={`${id}-hint`} className="text-sm text-muted">
                {checked ? t('seller.video.onHint') : t('seller.video.offHint')}
              </p>
            </div>
            <div className="flex items-center gap-2">
              {update.isPending && <Spinner className="h-4 w-4 text-muted" />}
              <Switch.Root
                id={id}
                checked={checked}
                disabled={update.isPending}
                aria-describedby={`${id}-hint`}
                onCheckedChange={onCheckedChange}
                className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-stone-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-wait disabled:opacity-70 data-[state=checked]:bg-brand-700"
              >
                <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
              </Switch.Root>
            </div>
          </div>
          {sellerVideoSettings.map((Component, i) => (
            <Component key={i} />
          ))}
        </CardContent>
      </Card>
    </section>
  );
}
