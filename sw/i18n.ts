// Named imports of the one section the worker needs, so the bundler leaves the rest of the locales out.
import { push as enPush, sellerMoney as enMoney } from '../locales/en.json';
import { push as taPush, sellerMoney as taMoney } from '../locales/ta.json';

// The jeweller's new-paid-order texts (issue #48) are with the shop's money texts.
const en = { push: enPush, sellerMoney: { push: enMoney.push } };
const ta = { push: taPush, sellerMoney: { push: taMoney.push } };

export type SwLocale = 'en' | 'ta';

type Tree = { [k: string]: string | Tree };

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Notification texts in the seller's language, from the same locale files as the app (Tamil falls back to English). */
export function notificationText(
  locale: SwLocale,
  callerName: string,
  productName?: string | null,
  callBack = false,
) {
  const t = (key: string, fallback: string) =>
    (lookup((locale === 'ta' ? ta : en) as Tree, key) ?? lookup(en as Tree, key) ?? fallback)
      .replace('{{name}}', callerName)
      .replace('{{product}}', productName ?? '');
  // A jeweller's call-back rings the customer (issue #22).
  const body = callBack
    ? t('push.incomingCall.callBackBody', '{{name}} is calling you back on Nagai')
    : t('push.incomingCall.body', '{{name}} is calling your shop on Nagai');
  return {
    title: t('push.incomingCall.title', 'Incoming Video Call...'),
    // The piece the customer calls about, when the call was placed from a product.
    body: productName ? `${body}\n${t('push.incomingCall.aboutProduct', 'Calling about {{product}}')}` : body,
    accept: t('push.incomingCall.accept', 'Accept'),
    decline: t('push.incomingCall.decline', 'Decline'),
  };
}

/** The jeweller's notification of a new paid order (issue #48). */
export function orderPaidText(locale: SwLocale, orderId: number, customerName: string, amount: string) {
  const t = (key: string, fallback: string) =>
    (lookup((locale === 'ta' ? ta : en) as Tree, key) ?? lookup(en as Tree, key) ?? fallback)
      .replace('{{order}}', String(orderId))
      .replace('{{customer}}', customerName)
      .replace('{{amount}}', amount);
  return {
    title: t('sellerMoney.push.orderPaidTitle', 'New paid order'),
    body: t('sellerMoney.push.orderPaidBody', 'Order #{{order}} from {{customer}}: {{amount}}'),
  };
}

/** The jeweller's notification of a new call-back request (issue #22). */
export function callbackRequestText(locale: SwLocale, customerName: string, productName?: string | null) {
  const t = (key: string, fallback: string) =>
    (lookup((locale === 'ta' ? ta : en) as Tree, key) ?? lookup(en as Tree, key) ?? fallback)
      .replace('{{name}}', customerName)
      .replace('{{product}}', productName ?? '');
  const body = t('push.callbackRequest.body', '{{name}} asks you to call back');
  return {
    title: t('push.callbackRequest.title', 'Call-back request'),
    body: productName ? `${body}\n${t('push.callbackRequest.aboutProduct', 'About {{product}}')}` : body,
  };
}

/** An appointment notice (issue #22): booked, the reminder, the start, moved or cancelled; the time in the worker's zone. */
export function appointmentText(
  locale: SwLocale,
  notice: 'booked' | 'reminder' | 'starting' | 'rescheduled' | 'cancelled',
  otherName: string,
  startsAt: string,
  reason?: string | null,
) {
  const time = new Intl.DateTimeFormat(locale === 'ta' ? 'ta-IN' : 'en-IN', {
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(startsAt));
  const t = (key: string, fallback: string) =>
    (lookup((locale === 'ta' ? ta : en) as Tree, key) ?? lookup(en as Tree, key) ?? fallback)
      .replace('{{name}}', otherName)
      .replace('{{time}}', time)
      .replace('{{reason}}', reason ?? '');
  const body = t(`push.appointment.${notice}`, '{{name}}: {{time}}');
  return {
    title: t('push.appointment.title', 'Video appointment'),
    body: reason ? `${body}\n${t('push.appointment.reason', 'Reason: {{reason}}')}` : body,
  };
}
