import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FAMILY_GUEST_HEADER } from '../../../../../api/contract/call-family';
import type { PhotoCallItem } from '../../../../../api/contract/call-selling';

/**
 * A photo the jeweller sent, in the guest's list of what was shown. Its bytes need the guest's token in a
 * header, which an <img> cannot send: the page fetches them and shows a blob URL (freed when it goes).
 */
export function GuestPhoto({
  photo,
  number,
  shopName,
  guestToken,
}: {
  photo: PhotoCallItem;
  number: number;
  shopName: string;
  guestToken: string;
}) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const abort = new AbortController();
    let url: string | null = null;
    void (async () => {
      try {
        const res = await fetch(photo.photoUrl, {
          headers: { [FAMILY_GUEST_HEADER]: guestToken },
          signal: abort.signal,
        });
        if (!res.ok) throw new Error(String(res.status));
        url = URL.createObjectURL(await res.blob());
        if (abort.signal.aborted) URL.revokeObjectURL(url);
        else setSrc(url);
      } catch {
        if (!abort.signal.aborted) setFailed(true);
      }
    })();
    return () => {
      abort.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [photo.photoUrl, guestToken]);
  const alt = t('family.photo.alt', { n: number, shop: shopName });
  const ratio = photo.width > 0 && photo.height > 0 ? `${photo.width} / ${photo.height}` : '4 / 3';
  return (
    <li className="rounded-lg bg-white p-2 text-ink" data-testid="guest-photo">
      {src ? (
        <img
          src={src}
          alt={alt}
          width={photo.width || undefined}
          height={photo.height || undefined}
          className="mx-auto max-h-72 w-auto max-w-full rounded-md object-contain"
          style={{ aspectRatio: ratio }}
        />
      ) : (
        <p className="px-1 py-4 text-center text-sm text-muted" role={failed ? 'alert' : 'status'}>
          {failed ? t('family.photo.failed') : t('family.photo.loading', { n: number })}
        </p>
      )}
    </li>
  );
}
