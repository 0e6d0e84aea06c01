import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

const variants = {
  default: 'bg-brand-700 text-white',
  secondary: 'bg-gold-100 text-ink',
  success: 'bg-green-100 text-green-900',
  warning: 'bg-amber-100 text-amber-900',
  destructive: 'bg-red-100 text-red-900',
  outline: 'border border-stone-300 text-ink',
} as const;

export type BadgeVariant = keyof typeof variants;

export function Badge({
  variant = 'default',
  className,
  ...props
}: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
