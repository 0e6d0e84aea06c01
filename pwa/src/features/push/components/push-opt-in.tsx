import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { getPreferredLanguage, translateMessage } from '../../../lib/i18n';
import { cn } from '../../../lib/cn';
import {
  browserSupportsPush,
  currentSubscription,
  pushQueries,
  saveSubscription,
  subscribeDevice,
  unsubscribeDevice,
} from '../api';

type Permission = NotificationPermission | 'unsupported';

function readPermission(): Permission {
  return browserSupportsPush() ? Notification.permission : 'unsupported';
}

/** Follows the notification permission, which the user may change in the browser's site settings. */
function usePermission(): [Permission, (p: Permission) => void] {
  const [permission, setPermission] = useState<Permission>(readPermission);
  useEffect(() => {
    if (permission === 'unsupported' || !navigator.permissions?.query) return;
    let status: PermissionStatus | undefined;
    const onChange = () => setPermission(readPermission());
    navigator.permissions
      .query({ name: 'notifications' })
      .then((s) => {
        status = s;
        s.addEventListener('change', onChange);
      })
      .catch(() => undefined);
    return () => status?.removeEventListener('change', onChange);
  }, [permission]);
  return [permission, setPermission];
}

type Note = 'enabled' | 'disabled' | 'dismissed' | null;

/**
 * 'Ring me on this device even when Nagai is closed' (seller profile, video settings): subscribes this
 * device to web push. Shown only when the server has push keys; polling rings either way.
 */
export default function PushOptIn() {
  const { t } = useTranslation();
  const key = useQuery(pushQueries.publicKey());
  const [permission, setPermission] = usePermission();
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [note, setNote] = useState<Note>(null);
  const labelId = useId();
  const descId = useId();
  const noteId = useId();
  const publicKey = key.data?.enabled ? key.data.publicKey : null;

  // What this device has now; a live subscription is re-sent so the server knows it is this seller's.
  useEffect(() => {
    if (!publicKey || permission === 'unsupported') return;
    let cancelled = false;
    void currentSubscription()
      .then((sub) => {
        if (cancelled) return;
        setSubscribed(!!sub && permission === 'granted');
        if (sub && permission === 'granted')
          void saveSubscription(sub, getPreferredLanguage()).catch(() => {});
      })
      .catch(() => !cancelled && setSubscribed(false));
    return () => {
      cancelled = true;
    };
  }, [publicKey, permission]);

  const toggle = useMutation({
    mutationFn: async (on: boolean): Promise<Note> => {
      if (!on) {
        await unsubscribeDevice();
        setSubscribed(false);
        return 'disabled';
      }
      const result =
        Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
      setPermission(result);
      if (result !== 'granted') return result === 'denied' ? null : 'dismissed';
      await subscribeDevice(publicKey as string, getPreferredLanguage());
      setSubscribed(true);
      return 'enabled';
    },
    onMutate: () => setNote(null),
    onSuccess: (n) => setNote(n),
  });

  if (!key.data?.enabled) return null; // push not configured (or not known yet): nothing to offer

  const unsupported = permission === 'unsupported';
  const denied = permission === 'denied';
  const checking = !unsupported && subscribed === null;
  const checked = !!subscribed && !denied;
  const disabled = unsupported || denied || checking || toggle.isPending;

  let message: string | null = null;
  let tone: 'info' | 'warn' | 'error' = 'info';
  if (unsupported) [message, tone] = [t('push.optIn.unsupported'), 'warn'];
  else if (denied) [message, tone] = [t('push.optIn.denied'), 'warn'];
  else if (toggle.isError)
    [message, tone] = [
      toggle.error instanceof ApiError
        ? translateMessage(errorMessage(toggle.error))
        : t('push.optIn.failed'),
      'error',
    ];
  else if (checking) message = t('push.optIn.checking');
  else if (note) [message, tone] = [t(`push.optIn.${note}`), note === 'dismissed' ? 'warn' : 'info'];

  return (
    <div className="flex items-start justify-between gap-4 rounded-lg border border-stone-200 bg-white p-4">
      <div className="min-w-0">
        <p id={labelId} className="font-medium text-ink">
          {t('push.optIn.label')}
        </p>
        <p id={descId} className="mt-1 text-sm text-muted">
          {t('push.optIn.description')}
        </p>
        <p
          id={noteId}
          role={tone === 'error' ? 'alert' : 'status'}
          className={cn(
            'text-sm empty:hidden',
            message && 'mt-2',
            tone === 'error' ? 'text-red-700' : tone === 'warn' ? 'text-amber-900' : 'text-emerald-800',
          )}
        >
          {message}
        </p>
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-describedby={`${descId} ${noteId}`}
        aria-busy={toggle.isPending || checking}
        disabled={disabled}
        onClick={() => toggle.mutate(!checked)}
        className={cn(
          'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
          'disabled:cursor-not-allowed disabled:opacity-60',
          checked ? 'bg-brand-700' : 'bg-stone-500',
        )}
      >
        <span
          aria-hidden="true"
          className={cn(
            'inline-block h-5 w-5 rounded-full bg-white shadow transition-transform',
            checked ? 'translate-x-[1.375rem]' : 'translate-x-0.5',
          )}
        />
      </button>
    </div>
  );
}
