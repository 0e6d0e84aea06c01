import { LoaderCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

/** A decorative spinner; pair it with visible or screen-reader text that says what is loading. */
export function Spinner({ className }: { className?: string }) {
  return <LoaderCircle aria-hidden="true" className={cn('h-5 w-5 animate-spin', className)} />;
}

/** A centred spinner with a label, for whole-page loading. */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] items-center justify-center gap-3 text-muted">
      <Spinner className="h-6 w-6 text-brand-700" />
      <span>{label}</span>
    </div>
  );
}
