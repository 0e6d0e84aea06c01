import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RegisterSchema, type RegisterInput, type User } from '../../../../../api/contract/accounts';
import { Button } from '../../../components/ui/button';
import { InputField, PasswordInputField } from '../../../components/ui/field';
import { useRegisterMutation } from '../api';
import { registrationErrorText } from '../utils/auth-errors';
import {
  apiFieldErrors,
  focusFirstInvalid,
  zodFieldErrors,
  type FieldErrors,
} from '../../../lib/form-errors';
import { FormAlert } from '../../../components/form-alert';

type RegisterField =
  'fullName' | 'displayName' | 'email' | 'password' | 'confirmPassword' | 'adminSignupCode';

/**
 * Create Account for each portal: customers give a full name too; sellers get role 'seller'; admins need the
 * server's admin signup code. Validated with the contract's RegisterSchema, plus the password confirmation.
 */
export function RegisterForm({
  variant,
  onSuccess,
}: {
  variant: 'customer' | 'seller' | 'admin';
  onSuccess: (user: User) => void;
}) {
  const { t } = useTranslation();
  const register = useRegisterMutation();
  const [values, setValues] = useState<Record<RegisterField, string>>({
    fullName: '',
    displayName: '',
    email: '',
    password: '',
    confirmPassword: '',
    adminSignupCode: '',
  });
  const [visible, setVisible] = useState({ password: false, confirmPassword: false });
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const set = (field: RegisterField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setFormError(null);
    const input: RegisterInput = {
      email: values.email,
      password: values.password,
      displayName: values.displayName,
      ...(variant === 'customer' && values.fullName.trim() ? { fullName: values.fullName } : {}),
      ...(variant !== 'customer' ? { role: variant } : {}),
      ...(variant === 'admin' ? { adminSignupCode: values.adminSignupCode } : {}),
    };
    const parsed = RegisterSchema.safeParse(input);
    const nextErrors: FieldErrors<RegisterField> = parsed.success ? {} : zodFieldErrors(parsed.error);
    if (values.confirmPassword !== values.password && !nextErrors.password) {
      nextErrors.confirmPassword = t('auth.register.passwordsMismatch');
    }
    if (!parsed.success || Object.keys(nextErrors).length > 0) {
      setErrors(nextErrors);
      focusFirstInvalid(form);
      return;
    }
    register.mutate(parsed.data, {
      onSuccess: ({ user }) => {
        setDone(true);
        onSuccess(user);
      },
      onError: (err) => {
        setErrors(apiFieldErrors<RegisterField>(err));
        setFormError(registrationErrorText(err));
      },
    });
  }

  const busy = register.isPending || done;
  const passwordField = (field: 'password' | 'confirmPassword', label: string, hint?: string) => (
    <PasswordInputField
      label={label}
      error={errors[field]}
      hint={hint}
      name={field}
      autoComplete="new-password"
      value={values[field]}
      onChange={(e) => set(field, e.target.value)}
      visible={visible[field]}
      onVisibleChange={(v) => setVisible((s) => ({ ...s, [field]: v }))}
      showLabel={t('common.showPassword')}
      hideLabel={t('common.hidePassword')}
    />
  );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <FormAlert message={formError} />
      {variant === 'customer' && (
        <InputField
          label={t('auth.fields.fullName')}
          error={errors.fullName}
          name="fullName"
          autoComplete="name"
          value={values.fullName}
          onChange={(e) => set('fullName', e.target.value)}
        />
      )}
      <InputField
        label={t(variant === 'seller' ? 'auth.fields.yourName' : 'auth.fields.displayName')}
        error={errors.displayName}
        hint={t('auth.register.displayNameHint')}
        name="displayName"
        autoComplete="nickname"
        value={values.displayName}
        onChange={(e) => set('displayName', e.target.value)}
      />
      <InputField
        label={t('auth.fields.email')}
        error={errors.email}
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        value={values.email}
        onChange={(e) => set('email', e.target.value)}
      />
      {passwordField('password', t('auth.fields.password'), t('auth.register.passwordHint'))}
      {passwordField('confirmPassword', t('auth.fields.confirmPassword'))}
      {variant === 'admin' && (
        <InputField
          label={t('auth.fields.adminSignupCode')}
          error={errors.adminSignupCode}
          hint={t('auth.admin.codeHint')}
          name="adminSignupCode"
          autoComplete="off"
          value={values.adminSignupCode}
          onChange={(e) => set('adminSignupCode', e.target.value)}
        />
      )}
      <Button type="submit" className="w-full" loading={busy}>
        {busy ? t('auth.register.submitting') : t('auth.register.submit')}
      </Button>
    </form>
  );
}
