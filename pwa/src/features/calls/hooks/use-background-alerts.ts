import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IncomingCallRecord } from '../lib/call-state';
import { useDocumentHidden } from './use-document-visibility';

type BadgeNavigator = Navigator & {
  setAppBadge?: (n?: number) => Promise<void>;
  clearAppBadge?: () => Promise<void>;
};

async function showSystemNotification(title: string, body: string, callId: number, icon: string) {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const options: NotificationOptions = {
    body,
    tag: `call-${callId}`,
    data: { callId },
    icon,
    requireInteraction: true,
  };
  const sw = navigator.serviceWorker;
  if (sw?.controller) {
    const registration = await sw.ready;
    await registration.showNotification(title, options);
    return;
  }
  const n = new Notification(title, options);
  n.onclick = () => {
    window.focus();
    n.close();
  };
}

async function closeSystemNotification(callId: number) {
  const sw = navigator.serviceWorker;
  if (!sw?.controller) return;
  const registration = await sw.ready;
  const list = await registration.getNotifications({ tag: `call-${callId}` });
  list.forEach((n) => n.close());
}

/**
 * The background companion (issue 7 §4): when a call rings while the tab is hidden, the title and app
 * badge change and, if allowed, a system notification appears; all of it is restored when the call is
 * answered, declined or gone.
 */
export function useBackgroundAlerts(incoming: IncomingCallRecord | null): void {
  const { t } = useTranslation();
  const hidden = useDocumentHidden();
  // Once a call rang in the background, its alert stays until the call is answered or gone.
  const [alertedId, setAlertedId] = useState<number | null>(null);
  if (incoming && hidden && alertedId !== incoming.callId) setAlertedId(incoming.callId);

  const callId = incoming && alertedId === incoming.callId ? incoming.callId : null;
  const name = incoming?.callerName ?? '';

  useEffect(() => {
    if (callId === null) return;
    const previousTitle = document.title;
    const title = t('calls.background.title');
    document.title = title;
    const nav = navigator as BadgeNavigator;
    void nav.setAppBadge?.(1).catch(() => undefined);
    void showSystemNotification(
      t('calls.background.notificationTitle'),
      t('calls.background.notificationBody', { name }),
      callId,
      '/icons/icon-192.png',
    ).catch(() => undefined);
    return () => {
      if (document.title === title) document.title = previousTitle;
      void nav.clearAppBadge?.().catch(() => undefined);
      void closeSystemNotification(callId).catch(() => undefined);
    };
    // The caller's name is read when the alert starts; it does not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [callId, t]);
}
