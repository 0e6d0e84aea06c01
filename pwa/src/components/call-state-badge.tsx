import { Clock, Moon, Video, VideoOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { nextOpening, type ShopCallState } from '../../../api/contract/shop-call-state';
import { numberLocale } from '../lib/format';
import { Badge, type BadgeVariant } from './ui/badge';

const noSubscription = () => () => undefined;
const onClient = () => true;
const onServer = () => false;

/**
 * The words of a shop's call state (issue #22): "Available now", "Back at 10:00", "Opens Monday 10:00",
 * "Away: …", "Can't take calls now". The next opening is written in the shop's time zone (its hours are kept
 * in it) and the viewer's language; until the page is hydrated it reads "Closed now", so the server's HTML and
 * the first client render agree.
 */
export function useCallStateLabel(state: ShopCallState): string {
  const { t, i18n } = useTranslation();
  const live = useSyncExternalStore(noSubscription, onClient, onServer);
  switch (state.state) {
    case 'available':
      return t('calls.schedule.state.available');
    case 'offline':
      return t('calls.schedule.state.offline');
    case 'unreachable':
      return t('calls.schedule.state.unreachable');
    case 'disabled':
      return t('calls.schedule.state.disabled');
    case 'away':
      return state.message
        ? t('calls.schedule.state.awayWith', { message: state.message })
        : t('calls.schedule.state.away');
    case 'closed': {
      if (!state.opensAt || !live) return t('calls.schedule.state.closed');
      const next = nextOpening(state.opensAt, new Date(), state.timeZone, numberLocale(i18n.language));
      return next.kind === 'today'
        ? t('calls.schedule.state.backAt', { time: next.time })
        : t('calls.schedule.state.opens', { day: next.day, time: next.time });
    }
  }
}

const VARIANT: Record<ShopCallState['state'], BadgeVariant> = {
  available: 'success',
  offline: 'warning',
  unreachable: 'outline',
  closed: 'outline',
  away: 'warning',
  disabled: 'outline',
};

/** The one badge of a shop's call state, on directory cards, the storefront and the product page. */
export function CallStateBadge({ state, className }: { state: ShopCallState; className?: string }) {
  const label = useCallStateLabel(state);
  const Icon =
    state.state === 'disabled' || state.state === 'unreachable'
      ? VideoOff
      : state.state === 'closed'
        ? Clock
        : state.state === 'away'
          ? Moon
          : Video;
  return (
    <Badge
      variant={VARIANT[state.state]}
      className={`max-w-full gap-1 ${className ?? ''}`}
      data-testid="call-state"
      data-state={state.state}
    >
      <Icon aria-hidden="true" className="h-3.5 w-3.5 shrink-0" />
      <span className="truncate">{label}</span>
    </Badge>
  );
}
