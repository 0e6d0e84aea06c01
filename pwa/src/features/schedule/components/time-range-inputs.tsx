import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';

/**
 * On a phone the two fields share about 240 px: narrower padding, a smaller font and no clock button (a tap on the field opens
 * the phone's own time picker), so "10:00 AM" is never cut.
 */
const TIME_FIELD = 'min-w-0 flex-1 px-2 max-sm:text-sm max-sm:[&::-webkit-calendar-picker-indicator]:hidden';

/**
 * One from–to range of a weekly schedule (video hours, breaks) with its remove button. A time input has no
 * 24:00: the end of the day shows as 00:00 and is stored as 24:00 (api/contract/shop-hours.ts).
 */
export function TimeRangeInputs({
  from,
  to,
  onChange,
  onRemove,
  removeLabel,
}: {
  from: string;
  to: string;
  onChange: (change: { from?: string; to?: string }) => void;
  onRemove: () => void;
  removeLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Input
        type="time"
        aria-label={t('calls.schedule.hours.from')}
        value={from}
        onChange={(e) => onChange({ from: e.target.value })}
        className={TIME_FIELD}
      />
      <span aria-hidden="true">–</span>
      <Input
        type="time"
        aria-label={t('calls.schedule.hours.to')}
        value={to === '24:00' ? '00:00' : to}
        onChange={(e) => onChange({ to: e.target.value === '00:00' ? '24:00' : e.target.value })}
        className={TIME_FIELD}
      />
      <Button type="button" variant="ghost" size="sm" onClick={onRemove} aria-label={removeLabel}>
        <Trash2 aria-hidden="true" className="h-4 w-4" />
      </Button>
    </>
  );
}
