import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { User } from '../../../../../api/contract/accounts';
import { formatIndianMobile, normalizeIndianMobile } from '../../../../../api/contract/mobile';
import { Button } from '../../../components/ui/button';
import { InputField, PasswordInputField } from '../../../components/ui/field';
import { FormAlert } from '../../../components/form-alert';
import { translateMessage } from '../../../lib/i18n';
import {
  mobileAvailabilityQuery,
  usePasswordResetMutation,
  useSendCodeMutation,
  useMobileSignUpMutation,
  useVerifyCodeMutation,
} from '../api';
import { useCountdown } from '../utils/use-countdown';

const errorText = (err: unknown) => translateMessage(err instanceof Error ? err.message : '');

type Step = 'number' | 'code' | 'name' | 'reset';

/**
 * Sign-in with an Indian mobile number and a one-time code (issue #37): the number, then the code (the
 * browser's one-time-code autofill), then, for a new number, the display name. `mode="reset"` is the forgotten
 * password: the number, then the code with a new password. Shown only when the server offers mobile sign-in.
 */
export function MobileSignIn({
  onSuccess,
  mode = 'sign-in',
}: {
  onSuccess: (user: User) => void;
  mode?: 'sign-in' | 'reset';
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const availability = useQuery(mobileAvailabilityQuery());
  const send = useSendCodeMutation(mode);
  const verify = useVerifyCodeMutation();
  const signUp = useMobileSignUpMutation();
  const reset = usePasswordResetMutation();
  const [step, setStep] = useState<Step>('number');
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [notices, setNotices] = useState(false);
  const [ticket, setTicket] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const wait = useCountdown(resendAt);
  const locale = i18n.language === 'ta' ? 'ta' : 'en';

  if (!availability.data?.available) return null;
  const normalized = normalizeIndianMobile(mobile);

  const sendCode = (channel: 'sms' | 'whatsapp') => {
    setError(null);
    if (!normalized) return setError(t('messages.mobile.invalidMobile'));
    send.mutate(
      { mobile: normalized, channel },
      {
        onSuccess: (sent) => {
          setResendAt(Date.now() + sent.resendAfterSeconds * 1000);
          setCode('');
          setStep(mode === 'reset' ? 'reset' : 'code');
        },
        onError: (err) => setError(errorText(err)),
      },
    );
  };

  const onNumber = (e: FormEvent) => {
    e.preventDefault();
    sendCode('sms');
  };

  const onCode = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    verify.mutate(
      { mobile: normalized!, code: code.trim() },
      {
        onSuccess: (result) => {
          if (result.next === 'signed-in') onSuccess(result.user);
          else {
            setTicket(result.ticket);
            setStep('name');
          }
        },
        onError: (err) => setError(errorText(err)),
      },
    );
  };

  const onName = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    signUp.mutate(
      {
        ticket,
        displayName: name,
        notices,
        locale,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      },
      { onSuccess: ({ user }) => onSuccess(user), onError: (err) => setError(errorText(err)) },
    );
  };

  const onReset = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    reset.mutate(
      { mobile: normalized!, code: code.trim(), newPassword: password, confirmNewPassword: password },
      { onSuccess: ({ user }) => onSuccess(user), onError: (err) => setError(errorText(err)) },
    );
  };

  const codeField = (
    <InputField
      label={t('auth.mobile.codeLabel')}
      hint={t('auth.mobile.codeSent', { number: normalized ? formatIndianMobile(normalized) : '' })}
      name="one-time-code"
      autoComplete="one-time-code"
      inputMode="numeric"
      pattern="[0-9]*"
      maxLength={6}
      value={code}
      onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
    />
  );
  const resendRow = (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <Button type="button" variant="link" onClick={() => setStep('number')}>
        {t('auth.mobile.changeNumber')}
      </Button>
      <Button
        type="button"
        variant="link"
        disabled={wait > 0 || send.isPending}
        onClick={() => sendCode('sms')}
      >
        {wait > 0 ? t('auth.mobile.resendIn', { seconds: wait }) : t('auth.mobile.resend')}
      </Button>
    </div>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4 border-t border-stone-200 pt-4">
      <h2 id={`${id}-title`} className="text-base font-semibold text-ink">
        {mode === 'reset' ? t('auth.mobile.resetTitle') : t('auth.mobile.title')}
      </h2>
      <FormAlert message={error} />
      {step === 'number' && (
        <form noValidate onSubmit={onNumber} className="space-y-3">
          <InputField
            label={t('auth.mobile.numberLabel')}
            hint={t('auth.mobile.numberHint')}
            name="mobile"
            type="tel"
            autoComplete="tel-national"
            inputMode="tel"
            placeholder="98765 43210"
            value={mobile}
            onChange={(e) => setMobile(e.target.value)}
          />
          <Button type="submit" className="w-full" loading={send.isPending}>
            {t('auth.mobile.sendCode')}
          </Button>
          {availability.data.channels.includes('whatsapp') && (
            <Button
              type="button"
              variant="outline"
              className="w-full"
              disabled={send.isPending}
              onClick={() => sendCode('whatsapp')}
            >
              {t('auth.mobile.sendWhatsApp')}
            </Button>
          )}
        </form>
      )}
      {step === 'code' && (
        <form noValidate onSubmit={onCode} className="space-y-3">
          {codeField}
          <Button type="submit" className="w-full" loading={verify.isPending}>
            {t('auth.mobile.verify')}
          </Button>
          {resendRow}
        </form>
      )}
      {step === 'reset' && (
        <form noValidate onSubmit={onReset} className="space-y-3">
          {codeField}
          <PasswordInputField
            label={t('auth.mobile.newPassword')}
            hint={t('auth.register.passwordHint')}
            name="new-password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            visible={showPassword}
            onVisibleChange={setShowPassword}
            showLabel={t('common.showPassword')}
            hideLabel={t('common.hidePassword')}
          />
          <Button type="submit" className="w-full" loading={reset.isPending}>
            {t('auth.mobile.resetSubmit')}
          </Button>
          {resendRow}
        </form>
      )}
      {step === 'name' && (
        <form noValidate onSubmit={onName} className="space-y-3">
          <InputField
            label={t('auth.fields.yourName')}
            name="displayName"
            autoComplete="nickname"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <div className="flex items-start gap-3 text-sm">
            <input
              id={`${id}-notices`}
              type="checkbox"
              className="mt-0.5 h-4 w-4 accent-brand-700"
              checked={notices}
              onChange={(e) => setNotices(e.target.checked)}
            />
            <label htmlFor={`${id}-notices`} className="text-ink">
              {t('auth.mobile.consent')}
            </label>
          </div>
          <Button type="submit" className="w-full" loading={signUp.isPending}>
            {t('auth.mobile.create')}
          </Button>
        </form>
      )}
    </section>
  );
}
