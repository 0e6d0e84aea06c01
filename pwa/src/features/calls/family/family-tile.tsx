import { cn } from '../../../lib/cn';
import { initials } from '../../../lib/format';
import { useStreamPlayback } from '../../video/hooks/use-stream-playback';

/**
 * One person's video in a family call (issue #52): their picture, or their initials until it comes; their
 * name under it. `muted` for one's own picture.
 */
export function FamilyTile({
  stream,
  name,
  label,
  party,
  muted,
  mirrored,
  className,
  children,
}: {
  stream: MediaStream | null;
  name: string;
  label: string;
  party: string;
  muted?: boolean;
  mirrored?: boolean;
  className?: string;
  children?: React.ReactNode;
}) {
  const { videoRef: ref, audioRef } = useStreamPlayback(stream);
  const hasVideo = !!stream?.getVideoTracks().length;
  return (
    <figure
      className={cn('relative m-0 overflow-hidden rounded-lg bg-stone-800 shadow-lg', className)}
      data-testid="family-tile"
      data-party={party}
      data-self={muted || undefined}
    >
      <video
        ref={ref}
        autoPlay
        playsInline
        muted
        aria-label={label}
        data-testid="family-video"
        className={cn('h-full w-full object-cover', mirrored && '-scale-x-100')}
      />
      {!muted && <audio ref={audioRef} autoPlay />}
      {!hasVideo && (
        <span
          aria-hidden="true"
          className="absolute inset-0 flex items-center justify-center text-2xl font-semibold text-white"
        >
          {initials(name)}
        </span>
      )}
      <figcaption className="absolute inset-x-0 bottom-0 truncate bg-black/60 px-1.5 py-0.5 text-xs font-medium text-white">
        {name}
      </figcaption>
      {children}
    </figure>
  );
}
