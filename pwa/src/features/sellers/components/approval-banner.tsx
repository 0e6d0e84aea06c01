import { CircleCheck, CircleX, Clock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../../lib/cn';

/** Says plainly where the shop stands: pending approval (null), disapproved (false) or live (true). */
export function ApprovalBanner({ isApproved }: { isApproved: boolean | null }) {
  const { t } = useTranslation();
  const state = isApproved === null ? 'pending' : isApproved ? 'live' : 'disapproved';
  const Icon = state === 'pending' ? Clock : state === 'live' ? CircleCheck : CircleX;
  return (
    <div
      role="status"
      className={cn(
        'flex items-start gap-3 rounded-xl border p-4',
        state === 'pending' && 'border-amber-300 bg-amber-50 text-amber-950',
        state === 'live' && 'border-green-300 bg-green-50 text-green-950',
        state === 'disapproved' && 'border-red-300 bg-red-50 text-red-950',
      )}
    >
      <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
      <div>
        <p className="font-semibold">{t(`seller.approval.${state}.title`)}</p>
        <p className="text-sm">{t(`seller.approval.${state}.description`)}</p>
      </div>
    </div>
  );
}
