import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../../../api/contract/accounts';
import { buttonClasses } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { MobileSignIn, mobileAvailabilityQuery } from '../../accounts/public';

/** The name a signed-in guest joins under: the account's first name (the server takes the same). */
export const guestFirstName = (user: User) => user.displayName.trim().split(/\s+/)[0] ?? '';

/**
 * On the join page (issue #52, docs/product-rules.md §21.2): someone already signed in is offered to ask as
 * themselves, under their first name (the call's own customer or jeweller is refused by the server).
 */
export function AskAsAccount({ user, asking, onAsk }: { user: User; asking: boolean; onAsk: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const name = guestFirstName(user);
  return (
    <section
      aria-labelledby={`${id}-me`}
      className="flex flex-col gap-3 rounded-md border border-stone-300 p-3"
      data-testid="guest-as-account"
    >
      <p id={`${id}-me`}>{t('family.join.signedInAs', { name })}</p>
      <button type="button" onClick={onAsk} disabled={asking} className={buttonClasses('primary', 'lg')}>
        {asking && <Spinner className="h-5 w-5" />}
        {t('family.join.askAs', { name })}
      </button>
    </section>
  );
}

/**
 * A visitor on the join page may sign in by a code to their mobile number (where the server offers mobile
 * sign-in); the page then offers AskAsAccount. While it is open the page hides its own name field (a new
 * number's step asks the account's name), and Cancel goes back to joining under a name.
 */
export function GuestSignIn({ open, onOpen }: { open: boolean; onOpen: (open: boolean) => void }) {
  const { t } = useTranslation();
  const availability = useQuery(mobileAvailabilityQuery());
  if (!availability.data?.available) return null;
  if (!open)
    return (
      <button type="button" onClick={() => onOpen(true)} className={buttonClasses('outline', 'md')}>
        {t('family.join.signIn')}
      </button>
    );
  return (
    <div className="flex flex-col gap-2" data-testid="guest-sign-in">
      <p className="text-sm text-muted">{t('family.join.signInHint')}</p>
      {/* A correct code sets the session: the page then offers "Ask to join as …". */}
      <MobileSignIn onSuccess={() => onOpen(false)} />
      <button type="button" onClick={() => onOpen(false)} className={buttonClasses('ghost', 'md')}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
