import { Video, VideoOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';

/** Spec §4: available when video is on and the seller is online; Offline when on but away; else Unavailable. */
export function videoState(seller: { videoCallEnabled: boolean; isOnline: boolean }) {
  if (!seller.videoCallEnabled) return 'unavailable' as const;
  return seller.isOnline ? ('available' as const) : ('offline' as const);
}

export function VideoBadge({ seller }: { seller: { videoCallEnabled: boolean; isOnline: boolean } }) {
  const { t } = useTranslation();
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
