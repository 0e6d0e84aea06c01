import { cn } from '../../lib/cn';

/** A grey placeholder block; hidden from assistive tech (announce loading on a container instead). */
export function Skeleton({ className }: { className?: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse rounded-md bg-stone-200', className)} />;
}
