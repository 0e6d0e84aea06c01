import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A centred message for empty lists, missing pages and errors: icon, title, text and an optional action. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  className,
  headingLevel = 2,
}: {
  icon?: ReactNode;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  className?: string;
  headingLevel?: 1 | 2 | 3;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div
      className={cn('mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-12 text-center', className)}
    >
      {icon && (
        <div aria-hidden="true" className="rounded-full bg-brand-50 p-4 text-brand-700">
          {icon}
        </div>
      )}
      <Heading className="text-xl font-semibold text-ink">{title}</Heading>
      {description && <div className="text-muted">{description}</div>}
      {action && <div className="mt-2">{action}</div>}
    </div>
  );
}
