import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api-client';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { accountQueries } from '../api';

/**
 * Tells the owner about failed sign-ins on their account since they last dismissed it (the server counts them;
 * a stranger's guesses only slow the stranger down). Small and dismissible, on every page while it applies.
 */
export default function LoginNotice() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const { data: user } = useQuery(accountQueries.session());
  const dismiss = useMutation({
    mutationFn: () => api.call(API_ROUTES.loginNoticeDismiss, undefined),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountQueries.session().queryKey }),
  });
  const notice = user?.failedLogins;
  if (!notice) return null;
  const when = new Intl.DateTimeFormat(i18n.language === 'ta' ? 'ta-IN' : 'en-IN', {
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(notice.lastAt));
  return (
    <div className="fixed inset-x-0 bottom-0 z-40 flex justify-center p-3 sm:justify-start sm:p-4">
      <section
        role="status"
        aria-labelledby="login-notice-title"
        data-testid="login-notice"
        className="flex max-w-md items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-ink shadow-lg"
      >
        <ShieldAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-amber-800" />
        <div className="space-y-1">
          <h2 id="login-notice-title" className="font-semibold">
            {t('profile.failedLoginsTitle')}
          </h2>
          <p>{t('profile.failedLoginsBody', { count: notice.count, when })}</p>
          <button
            type="button"
            className="font-semibold text-brand-800 underline underline-offset-2 hover:text-brand-900 focus-visible:outline-2 focus-visible:outline-brand-600"
            disabled={dismiss.isPending}
            onClick={() => dismiss.mutate()}
          >
            {t('profile.failedLoginsDismiss')}
          </button>
        </div>
      </section>
    </div>
  );
}
