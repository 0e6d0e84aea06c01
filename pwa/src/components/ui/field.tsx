import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { Input, Textarea } from './input';
import { Label } from './label';
import { PasswordInput, type PasswordInputProps } from './password-input';

/** Props a field hands to its control so label, hint and error are announced together. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

/**
 * A labelled form field with an optional hint and an inline error next to it.
 * `children` receives the ids and aria props to spread on the input.
 */
export function Field({
  label,
  hint,
  error,
  children,
  className,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: (control: FieldControlProps) => ReactNode;
  className?: string;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ?? 'space-y-1.5'}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <p id={errorId} className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}

/** What a field shows around its control: the label, an optional hint and the current error. */
export interface FieldTextProps {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
}

/** Control props without the ones the field owns (id and aria wiring). */
type ControlProps<P> = Omit<P, keyof FieldControlProps>;

/** A Field around an Input: label, input props and error declared once. */
export function InputField({
  label,
  hint,
  error,
  ...props
}: FieldTextProps & ControlProps<InputHTMLAttributes<HTMLInputElement>>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Input {...control} {...props} />}
    </Field>
  );
}

/** A Field around a Textarea. */
export function TextareaField({
  label,
  hint,
  error,
  ...props
}: FieldTextProps & ControlProps<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <Textarea {...control} {...props} />}
    </Field>
  );
}

/** A Field around a PasswordInput with its show/hide toggle. */
export function PasswordInputField({
  label,
  hint,
  error,
  ...props
}: FieldTextProps & ControlProps<PasswordInputProps>) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <PasswordInput {...control} {...props} />}
    </Field>
  );
}
