import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * A side sheet: a Radix dialog docked to one side of the screen, full height. Modal, focus trapped inside,
 * Escape, the overlay and the close button dismiss, focus returns on close. `SheetTitle` names it and
 * `SheetDescription` describes it (Radix wires aria-labelledby and aria-describedby).
 */
export const Sheet = DialogPrimitive.Root;
export const SheetClose = DialogPrimitive.Close;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

const SIDES = {
  right: 'right-0',
  left: 'left-0',
} as const;

/** The sheet's largest width; below it the sheet takes the whole screen width. */
const WIDTHS = {
  sm: 'max-w-sm',
  md: 'max-w-md',
  '2xl': 'max-w-2xl',
} as const;

export type SheetContentProps = ComponentProps<typeof DialogPrimitive.Content> & {
  side?: keyof typeof SIDES;
  width: keyof typeof WIDTHS;
  children: ReactNode;
} & (
    | {
        /** The close button's accessible name: the button sits in the top corner, last in tab order. */
        closeLabel: string;
        ownCloseButton?: never;
      }
    | {
        /** The content renders its own `SheetCloseButton` (say, in a header row, first in tab order). */
        ownCloseButton: true;
        closeLabel?: never;
      }
  );

export function SheetContent({
  side = 'right',
  width,
  className,
  children,
  closeLabel,
  ownCloseButton: _ownCloseButton,
  ...props
}: SheetContentProps) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
      <DialogPrimitive.Content
        className={cn(
          'fixed inset-y-0 z-50 flex h-dvh w-full flex-col bg-white shadow-xl focus:outline-none',
          SIDES[side],
          WIDTHS[width],
          className,
        )}
        {...props}
      >
        {children}
        {closeLabel !== undefined && (
          <SheetCloseButton label={closeLabel} className="absolute top-4 right-4" />
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The labelled × button that closes the sheet. */
export function SheetCloseButton({ label, className }: { label: string; className?: string }) {
  return (
    <DialogPrimitive.Close
      aria-label={label}
      className={cn(
        'rounded-md p-1.5 text-muted hover:bg-stone-100 hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600',
        className,
      )}
    >
      <X aria-hidden="true" className="h-5 w-5" />
    </DialogPrimitive.Close>
  );
}
