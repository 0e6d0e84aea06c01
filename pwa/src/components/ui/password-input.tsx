import { Eye, EyeOff } from 'lucide-react';
import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { Input } from './input';

export interface PasswordInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  visible: boolean;
  onVisibleChange: (visible: boolean) => void;
  /** Accessible names of the toggle, translated by the caller. */
  showLabel: string;
  hideLabel: string;
}

/** A password input with a show/hide toggle; the visibility is controlled so a form can reset it. */
export const PasswordInput = forwardRef<HTMLInputElement, PasswordInputProps>(function PasswordInput(
  { visible, onVisibleChange, showLabel, hideLabel, className, ...props },
  ref,
) {
  return (
    <div className="relative">
      <Input ref={ref} type={visible ? 'text' : 'password'} className={cn('pr-11', className)} {...props} />
      <button
        type="button"
        onClick={() => onVisibleChange(!visible)}
        aria-label={visible ? hideLabel : showLabel}
        aria-pressed={visible}
        className="absolute inset-y-0 right-0 flex w-10 items-center justify-center rounded-r-md text-muted hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {visible ? (
          <EyeOff aria-hidden="true" className="h-4 w-4" />
        ) : (
          <Eye aria-hidden="true" className="h-4 w-4" />
        )}
      </button>
    </div>
  );
});
