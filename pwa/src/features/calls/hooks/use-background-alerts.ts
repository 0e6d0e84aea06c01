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

/** The ring's cadence for the vibration motor (the same rhythm as the ringtone). */
const VIBRATION = [400, 200, 400];
const VIBRATION_EVERY_MS = 3000;
const TITLE_FLASH_MS = 1000;

/**
 * A ring the jeweller sees and feels as well as hears: when a call rings while the tab is hidden, or while
 * the browser refuses sound, the title flashes, the app badge shows, a phone vibrates in the ring's rhythm
 * and, if allowed, a system notification appears; all of it stops when the call is answered, declined or
 * gone.
 */
export function useBackgroundAlerts(incoming: IncomingCallRecord | null, silent = false): void {
  const { t } = useTranslation();
  const hidden = useDocumentHidden();
  // Once a call rang in the background (or without sound), its alert stays until it is answered or gone.
  const [alertedId, setAlertedId] = useState<number | null>(null);
  if (incoming && (hidden || silent) && alertedId !== incoming.callId) setAlertedId(incoming.callId);

  const callId = incoming && alertedId === incoming.callId ? incoming.callId : null;
  const name = incoming?.callerName ?? '';

  useEffect(() => {
    if (callId === null) return;
    const previousTitle = document.title;
    const title = t('calls.background.title');
    document.title = title;
    let shown = true;
    const flash = setInterval(() => {
      if (document.title !== title && document.title !== previousTitle) return;
      shown = !shown;
      document.title = shown ? title : previousTitle;
    }, TITLE_FLASH_MS);
    const vibrate = () => {
      try {
        navigator.vibrate?.(VIBRATION);
      } catch {
        /* no motor */
      }
    };
    vibrate();
    const buzz = setInterval(vibrate, VIBRATION_EVERY_MS);
    const nav = navigator as BadgeNavigator;
    void nav.setAppBadge?.(1).catch(() => undefined);
    void showSystemNotification(
      t('calls.background.notificationTitle'),
      t('calls.background.notificationBody', { name }),
      callId,
      '/icons/icon-192.png',
    ).catch(() => undefined);
    return () => {
      clearInterval(flash);
      clearInterval(buzz);
      try {
        navigator.vibrate?.(0);
      } catch {
        /* no motor */
      }
      if (document.title === title) document.title = previousTitle;
      void nav.clearAppBadge?.().catch(() => undefined);
      void closeSystemNotification(callId).catch(() => undefined);
    };
    // The caller's name is read when the alert starts; it does not restart it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [callId, t]);
}
