import { Video, VideoOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { CallStateBadge } from '../../../components/call-state-badge';
import type { ShopCallState } from '../../../../../api/contract/shop-call-state';

/** docs/product-rules.md §4: available when video is on and the seller is online; Offline when on but away; else Unavailable. */
export function videoState(seller: { videoCallEnabled: boolean; isOnline: boolean }) {
  if (!seller.videoCallEnabled) return 'unavailable' as const;
  return seller.isOnline ? ('available' as const) : ('offline' as const);
}

export function VideoBadge({
  seller,
}: {
  seller: { videoCallEnabled: boolean; isOnline: boolean; callState?: ShopCallState };
}) {
  const { t } = useTranslation();
  // The shop's one call state (hours, away, presence: issue #22) when the answer carries it.
  if (seller.callState) return <CallStateBadge state={seller.callState} />;
  const state = videoState(seller);
  return (
    <Badge
      variant={state === 'available' ? 'success' : state === 'offline' ? 'warning' : 'outline'}
      className="gap-1"
    >
      {state === 'unavailable' ? (
        <VideoOff aria-hidden="true" className="h-3.5 w-3.5" />
      ) : (
        <Video aria-hidden="true" className="h-3.5 w-3.5" />
      )}
      {t(`catalog.video.${state}`)}
    </Badge>
  );
}
