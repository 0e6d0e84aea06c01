import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { FAMILY_NAME_MAX } from '../../../../../api/contract/call-family';
import { Spinner } from '../../../components/ui/spinner';
import { buttonClasses } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { sessionQuery } from '../../../lib/session';
import { guestApi } from '../family/family-api';
import { AskAsAccount, GuestSignIn } from '../family/guest-account';
import { GuestCall } from '../family/guest-call';
import { keepGuestToken, keptGuestToken, useGuestCall } from '../family/use-guest-call';

/** A guest's camera and microphone: camera at the mesh's size; with the camera off, the microphone only. */
async function capture(camera: boolean): Promise<MediaStream | null> {
  try {
    return await navigator.mediaDevices.getUserMedia({
      audio: true,
      video: camera ? { width: 640, height: 480 } : false,
    });
  } catch {
    // Refused or absent: the guest joins to watch and listen.
    return null;
  }
}

function Centered({ children, testId }: { children: React.ReactNode; testId?: string }) {
  return (
    <main
      className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-5 text-center"
      data-testid={testId}
    >
      {children}
    </main>
  );
}

/**
 * `/family/:token`: a guest joins a call from a link (issue #52, docs/product-rules.md §21.2). They see the
 * shop and the piece, give a name (or sign in by a mobile code, or, signed in already, ask as themselves),
 * choose camera on or off, ask, wait for the jeweller, and are in.
 */
export default function FamilyJoinPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const nameId = useId();
  const [guestToken, setGuestToken] = useState<string | null>(() => keptGuestToken(token));
  const [name, setName] = useState('');
  const [camera, setCamera] = useState(true);
  const [local, setLocal] = useState<MediaStream | null>(null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [left, setLeft] = useState(false);
  const me = useQuery(sessionQuery()).data ?? null;
  const [signingIn, setSigningIn] = useState(false);
  const link = useQuery({
    queryKey: ['family', 'open', token],
    queryFn: () => guestApi.open(token),
    enabled: !guestToken,
    retry: false,
    meta: { silentErrors: true },
  });
  const call = useGuestCall(left ? null : guestToken, local);
  useEffect(() => () => local?.getTracks().forEach((tr) => tr.stop()), [local]);

  /** Asks under the name given, or as the account signed in (under its first name). */
  const ask = async (who: { name: string } | { asAccount: true }) => {
    setAsking(true);
    setError(null);
    const media = await capture(camera);
    try {
      const res = await guestApi.ask(token, who);
      keepGuestToken(token, res.guestToken);
      setLocal(media);
      setGuestToken(res.guestToken);
    } catch (err) {
      media?.getTracks().forEach((tr) => tr.stop());
      setError(translateMessage(errorMessage(err)));
    } finally {
      setAsking(false);
    }
  };
  const leave = () => {
    if (guestToken) void guestApi.leave(guestToken).catch(() => undefined);
    keepGuestToken(token, null);
    local?.getTracks().forEach((tr) => tr.stop());
    setLeft(true);
  };

  const s = call.state;
  if (left) return <Centered testId="guest-ended">{t('family.end.left')}</Centered>;
  if (guestToken && s?.state === 'admitted' && s.callLive)
    return (
      <GuestCall state={s} streams={call.streams} local={local} guestToken={guestToken} onLeave={leave} />
    );
  if (guestToken && (call.lost || (s && (!s.callLive || s.state !== 'asked')))) {
    const why = call.lost || !s?.callLive ? 'ended' : s.state === 'declined' ? 'declined' : s.state;
    return (
      <Centered testId="guest-ended">
        <p role="alert" className="text-lg font-semibold">
          {t(`family.end.${why === 'removed' || why === 'declined' || why === 'left' ? why : 'ended'}`)}
        </p>
      </Centered>
    );
  }
  if (guestToken)
    return (
      <Centered testId="guest-waiting">
        <Spinner className="h-8 w-8" />
        <p role="status" className="text-lg font-semibold">
          {t('family.join.waiting', { shop: s?.shopName ?? '' })}
        </p>
        <button type="button" onClick={leave} className={buttonClasses('outline', 'md')}>
          {t('common.cancel')}
        </button>
      </Centered>
    );
  if (link.isPending)
    return (
      <Centered>
        <Spinner className="h-8 w-8" />
        <p role="status">{t('common.loading')}</p>
      </Centered>
    );
  if (link.isError || link.data.link !== 'open')
    return (
      <Centered testId="guest-link-closed">
        <p role="alert" className="text-lg font-semibold">
          {link.isError
            ? translateMessage(errorMessage(link.error))
            : t(link.data.link === 'used' ? 'family.join.used' : 'family.join.over')}
        </p>
      </Centered>
    );
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col gap-4 p-5" data-testid="guest-join">
      <h1 className="text-xl font-semibold">{t('family.join.title', { shop: link.data.shopName })}</h1>
      {link.data.productName && <p>{t('family.join.about', { piece: link.data.productName })}</p>}
      <label className="flex items-center gap-3">
        <input
          type="checkbox"
          checked={camera}
          onChange={(e) => setCamera(e.target.checked)}
          className="h-5 w-5"
        />
        {t('family.join.camera')}
      </label>
      {me && <AskAsAccount user={me} asking={asking} onAsk={() => void ask({ asAccount: true })} />}
      {!signingIn && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void ask({ name });
          }}
          className="flex flex-col gap-4"
        >
          <div className="flex flex-col gap-1">
            <label htmlFor={nameId} className="font-medium">
              {t(me ? 'family.join.otherName' : 'family.join.name')}
            </label>
            <input
              id={nameId}
              value={name}
              onChange={(e) => setName(e.target.value)}
              required
              maxLength={FAMILY_NAME_MAX}
              autoComplete={me ? 'off' : 'name'}
              className="h-11 rounded-md border border-stone-300 px-3"
            />
          </div>
          <button
            type="submit"
            disabled={asking || !name.trim()}
            className={buttonClasses(me ? 'outline' : 'primary', 'lg')}
          >
            {asking && !me && <Spinner className="h-5 w-5" />}
            {t('family.join.ask')}
          </button>
        </form>
      )}
      {!me && <GuestSignIn open={signingIn} onOpen={setSigningIn} />}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <p className="text-sm text-muted">{t('family.join.privacy')}</p>
    </main>
  );
}
