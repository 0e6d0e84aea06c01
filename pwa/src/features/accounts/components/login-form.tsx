import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginSchema, type User } from '../../../../../api/contract/accounts';
import { Button } from '../../../components/ui/button';
import { InputField, PasswordInputField } from '../../../components/ui/field';
import { useQuery } from '@tanstack/react-query';
import { mobileAvailabilityQuery, useLoginMutation } from '../api';
import { loginErrorText } from '../utils/auth-errors';
import { focusFirstInvalid, zodFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { FormAlert } from '../../../components/form-alert';
import { MobileSignIn } from './mobile-sign-in';

type LoginField = 'email' | 'password';

/** E-mail (or mobile number) and password sign-in, validated with the contract's LoginSchema. */
export function LoginForm({ onSuccess }: { onSuccess: (user: User) => void }) {
  const { t } = useTranslation();
  const login = useLoginMutation();
  const [values, setValues] = useState({ email: '', password: '' });
  const [showPassword, setShowPassword] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [forgot, setForgot] = useState(false);

  const set = (field: LoginField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setFormError(null);
    const parsed = LoginSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(zodFieldErrors<LoginField>(parsed.error));
      focusFirstInvalid(form);
      return;
    }
    login.mutate(parsed.data, {
      onSuccess: ({ user }) => {
        setDone(true);
        onSuccess(user);
      },
      onError: (err) => setFormError(loginErrorText(err)),
    });
  }

  const busy = login.isPending || done;
  return (
    <>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <FormAlert message={formError} />
        {/* The e-mail or the verified mobile number (issue #49): a mobile-only account that set a password
            signs in with its number. */}
        <InputField
          label={t('auth.fields.emailOrMobile')}
          error={errors.email}
          name="email"
          type="text"
          autoComplete="username"
          inputMode="email"
          autoCapitalize="none"
          spellCheck={false}
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
        />
        <PasswordInputField
          label={t('auth.fields.password')}
          error={errors.password}
          name="password"
          autoComplete="current-password"
          value={values.password}
          onChange={(e) => set('password', e.target.value)}
          visible={showPassword}
          onVisibleChange={setShowPassword}
          showLabel={t('common.showPassword')}
          hideLabel={t('common.hidePassword')}
        />
        <Button type="submit" className="w-full" loading={busy}>
          {busy ? t('auth.login.submitting') : t('auth.login.submit')}
        </Button>
      </form>
      {/* Issue #37: a mobile number and a code, and the forgotten password by a code to that number. */}
      <MobileSignIn
        key={forgot ? 'reset' : 'sign-in'}
        mode={forgot ? 'reset' : 'sign-in'}
        onSuccess={onSuccess}
      />
      <MobileForgotToggle forgot={forgot} onToggle={() => setForgot((f) => !f)} />
    </>
  );
}

/** "Forgot password?" (or back to signing in), shown only where mobile codes are offered. */
function MobileForgotToggle({ forgot, onToggle }: { forgot: boolean; onToggle: () => void }) {
  const { t } = useTranslation();
  const availability = useQuery(mobileAvailabilityQuery());
  if (!availability.data?.available) return null;
  return (
    <Button type="button" variant="link" onClick={onToggle}>
      {forgot ? t('auth.mobile.backToSignIn') : t('auth.mobile.forgot')}
    </Button>
  );
}
