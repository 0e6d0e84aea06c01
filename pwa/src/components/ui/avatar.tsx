import { cn } from '../../lib/cn';
import { initials } from '../../lib/format';

/** Initials of a display name in a round badge (decorative: the name is shown or announced beside it). */
export function Avatar({ name, className }: { name: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-semibold text-white',
        className,
      )}
    >
      {initials(name)}
    </span>
  );
}
