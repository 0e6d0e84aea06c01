// Named imports of the one section the worker needs, so the bundler leaves the rest of the locales out.
import { push as enPush } from '../locales/en.json';
import { push as taPush } from '../locales/ta.json';

const en = { push: enPush };
const ta = { push: taPush };

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
export function notificationText(locale: SwLocale, callerName: string) {
  const t = (key: string, fallback: string) =>
    (lookup((locale === 'ta' ? ta : en) as Tree, key) ?? lookup(en as Tree, key) ?? fallback).replace(
      '{{name}}',
      callerName,
    );
  return {
    title: t('push.incomingCall.title', 'Incoming Video Call...'),
    body: t('push.incomingCall.body', '{{name}} is calling your shop on Nagai'),
    accept: t('push.incomingCall.accept', 'Accept'),
    decline: t('push.incomingCall.decline', 'Decline'),
  };
}
