import { ArrowDown, ArrowUp, ImagePlus, Link2, Trash2, Upload } from 'lucide-react';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PRODUCT_IMAGES, isAcceptableImageSource } from '../../../../../api/contract/products';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';

/** The server refuses images over 10 MB; say so before reading them. */
const MAX_FILE_BYTES = 10 * 1024 * 1024;
const ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** An image URL the add form accepts (docs/product-rules.md §5): http(s) with a path ending jpg, jpeg, png, webp or gif. */
export function isAddableImageUrl(value: string): boolean {
  const v = value.trim();
  return /^https?:\/\//i.test(v) && isAcceptableImageSource(v);
}

interface Reading {
  id: number;
  name: string;
  fraction: number;
}

function readAsDataUrl(file: File, onProgress: (fraction: number) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * The product's images: add by URL or from the device (read into data URIs, with progress), reorder with
 * move buttons, remove. The first image is the cover. Duplicates are ignored.
 */
export function ImageEditor({
  images,
  onChange,
  error,
  disabled,
}: {
  images: string[];
  onChange: (update: (images: string[]) => string[]) => void;
  error?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const [url, setUrl] = useState('');
  const [readings, setReadings] = useState<Reading[]>([]);
  const [fileError, setFileError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const full = images.length >= MAX_PRODUCT_IMAGES;
  const urlOk = isAddableImageUrl(url) && !full;

  const add = (sources: string[]) =>
    onChange((list) => {
      const next = [...list];
      for (const s of sources) if (!next.includes(s) && next.length < MAX_PRODUCT_IMAGES) next.push(s);
      return next;
    });

  const addUrl = () => {
    // An invalid URL is silently rejected (docs/product-rules.md §5); the disabled button already says it cannot be added.
    if (!urlOk || disabled) return;
    add([url.trim()]);
    setUrl('');
    setAnnouncement(t('seller.images.added'));
  };

  const onUrlKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    addUrl();
  };

  async function onFiles(files: FileList | null) {
    if (!files || files.length === 0) return;
    setFileError(null);
    const chosen = Array.from(files);
    const room = MAX_PRODUCT_IMAGES - images.length;
    const problems: string[] = [];
    const usable = chosen.filter((f) => {
      if (!ACCEPTED_TYPES.includes(f.type)) {
        problems.push(t('seller.images.wrongType', { name: f.name }));
        return false;
      }
      if (f.size > MAX_FILE_BYTES) {
        problems.push(t('seller.images.tooLarge', { name: f.name }));
        return false;
      }
      return true;
    });
    if (usable.length > room) problems.push(t('seller.images.tooMany', { max: MAX_PRODUCT_IMAGES }));
    const batch = usable.slice(0, Math.max(room, 0)).map((file, i) => ({ file, id: Date.now() + i }));
    setReadings((r) => [
      ...r,
      ...batch.map(({ file, id: rid }) => ({ id: rid, name: file.name, fraction: 0 })),
    ]);
    const results = await Promise.all(
      batch.map(async ({ file, id: rid }) => {
        try {
          return await readAsDataUrl(file, (fraction) =>
            setReadings((r) => r.map((x) => (x.id === rid ? { ...x, fraction } : x))),
          );
        } catch {
          problems.push(t('seller.images.readFailed', { name: file.name }));
          return null;
        } finally {
          setReadings((r) => r.filter((x) => x.id !== rid));
        }
      }),
    );
    const sources = results.filter((s): s is string => s !== null);
    if (sources.length > 0) {
      add(sources);
      setAnnouncement(t('seller.images.uploaded', { count: sources.length }));
    }
    setFileError(problems.length > 0 ? problems.join(' ') : null);
    if (fileRef.current) fileRef.current.value = '';
  }

  const move = (index: number, delta: -1 | 1) => {
    const target = index + delta;
    onChange((list) => {
      if (target < 0 || target >= list.length) return list;
      const next = [...list];
      [next[index], next[target]] = [next[target], next[index]];
      return next;
    });
    setAnnouncement(t('seller.images.moved', { position: target + 1, total: images.length }));
    // Keep focus on the moved image's same button so repeated presses keep moving it.
    requestAnimationFrame(() => {
      const button = listRef.current?.querySelector<HTMLButtonElement>(
        `[data-image-index="${target}"][data-move="${delta}"]`,
      );
      if (button && !button.disabled) button.focus();
      else listRef.current?.querySelector<HTMLButtonElement>(`[data-image-index="${target}"]`)?.focus();
    });
  };

  const remove = (index: number) => {
    onChange((list) => list.filter((_, i) => i !== index));
    setAnnouncement(t('seller.images.removed'));
  };

  return (
    <fieldset className="space-y-3" disabled={disabled} aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium text-ink">{t('seller.images.title')}</legend>
      <p className="text-xs text-muted">{t('seller.images.hint', { max: MAX_PRODUCT_IMAGES })}</p>

      <div className="space-y-1.5">
        <Label htmlFor={`${id}-url`}>{t('seller.images.url')}</Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-url`}
            type="url"
            inputMode="url"
            placeholder="https://example.com/necklace.jpg"
            value={url}
            aria-describedby={`${id}-url-hint`}
            onChange={(e) => setUrl(e.target.value)}
            onKeyDown={onUrlKeyDown}
          />
          <Button variant="outline" onClick={addUrl} disabled={!urlOk}>
            <Link2 aria-hidden="true" className="h-4 w-4" />
            {t('seller.images.addUrl')}
          </Button>
        </div>
        <p id={`${id}-url-hint`} className="text-xs text-muted">
          {t('seller.images.urlHint')}
        </p>
      </div>

      <div>
        <input
          ref={fileRef}
          id={`${id}-file`}
          type="file"
          accept={ACCEPTED_TYPES.join(',')}
          multiple
          className="sr-only"
          disabled={disabled || full}
          onChange={(e) => void onFiles(e.target.files)}
        />
        <label
          htmlFor={`${id}-file`}
          className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-md border border-dashed border-brand-600 px-4 text-sm font-medium text-brand-700 hover:bg-brand-50 has-[:disabled]:cursor-not-allowed [input:focus-visible+&]:outline-2 [input:focus-visible+&]:outline-offset-2 [input:focus-visible+&]:outline-brand-600"
        >
          <Upload aria-hidden="true" className="h-4 w-4" />
          {t('seller.images.upload')}
        </label>
      </div>

      {readings.length > 0 && (
        <ul className="space-y-2" aria-label={t('seller.images.processing')}>
          {readings.map((r) => (
            <li key={r.id} className="space-y-1 text-sm">
              <span className="text-muted">{t('seller.images.reading', { name: r.name })}</span>
              <div
                role="progressbar"
                aria-label={t('seller.images.reading', { name: r.name })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(r.fraction * 100)}
                className="h-1.5 w-full overflow-hidden rounded-full bg-stone-200"
              >
                <div className="h-full bg-brand-700" style={{ width: `${Math.round(r.fraction * 100)}%` }} />
              </div>
            </li>
          ))}
        </ul>
      )}

      {fileError && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {fileError}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}

      {images.length === 0 ? (
        <div className="flex items-center gap-2 rounded-md border border-dashed border-stone-300 p-4 text-sm text-muted">
          <ImagePlus aria-hidden="true" className="h-5 w-5" />
          {t('seller.images.none')}
        </div>
      ) : (
        <ol ref={listRef} className="space-y-2" aria-label={t('seller.images.list')}>
          {images.map((src, i) => (
            <li key={src} className="flex items-center gap-3 rounded-md border border-stone-200 p-2">
              <img src={src} alt="" className="h-14 w-14 shrink-0 rounded bg-stone-100 object-cover" />
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium text-ink">
                  {t('seller.images.position', { position: i + 1, total: images.length })}
                </p>
                {i === 0 && <Badge variant="secondary">{t('seller.images.cover')}</Badge>}
              </div>
              <div className="flex shrink-0 gap-1">
                <Button
                  variant="ghost"
                  size="icon"
                  data-image-index={i}
                  data-move={-1}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={t('seller.images.moveUp', { position: i + 1 })}
                >
                  <ArrowUp aria-hidden="true" className="h-4 w-4" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  data-image-index={i}
                  data-move={1}
                  disabled={i === images.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={t('seller.images.moveDown', { position: i + 1 })}
                >
                  <ArrowDown aria-hidden="true" className="h-4 w-4" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  onClick={() => remove(i)}
                  aria-label={t('seller.images.remove', { position: i + 1 })}
                  className="text-red-800 hover:bg-red-50"
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
