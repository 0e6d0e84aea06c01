import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatIndianMobile } from '../../../../../api/contract/mobile';
import { Button } from '../../../components/ui/button';
import { InputField, PasswordInputField } from '../../../components/ui/field';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useReauthCodeMutation } from '../api';
import { useCountdown } from '../utils/use-countdown';

/** What the form sends as its proof: the current password, or a code to the account's number. */
export interface ProofValue {
  currentPassword?: string;
  currentCode?: string;
}

/**
 * The proof a change that adds a way into the account needs (issue #46, docs/security.md "2."): the current
 * password; or, for an account without one (made by mobile sign-in), a code sent to its current number.
 */
export function CurrentProof({
  hasPassword,
  mobile,
  value,
  onChange,
  error,
}: {
  hasPassword: boolean;
  mobile: string | null;
  value: ProofValue;
  onChange: (value: ProofValue) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const send = useReauthCodeMutation();
  const [sendError, setSendError] = useState<string | null>(null);
  const [resendAt, setResendAt] = useState(0);
  const wait = useCountdown(resendAt);

  if (hasPassword || !mobile) {
    return (
      <PasswordInputField
        label={t('profile.proof.passwordLabel')}
        hint={t('profile.proof.passwordHint')}
        error={error}
        name="proofPassword"
        autoComplete="current-password"
        value={value.currentPassword ?? ''}
        onChange={(e) => onChange({ currentPassword: e.target.value })}
        visible={visible}
        onVisibleChange={setVisible}
        showLabel={t('common.showPassword')}
        hideLabel={t('common.hidePassword')}
      />
    );
  }
  const number = formatIndianMobile(mobile);
  return (
    <div className="space-y-2">
      <p className="text-sm text-muted">{t('profile.proof.codeHint')}</p>
      <Button
        type="button"
        variant="outline"
        loading={send.isPending}
        disabled={wait > 0}
        onClick={() => {
          setSendError(null);
          send.mutate(
            { channel: 'sms' },
            {
              onSuccess: (sent) => setResendAt(Date.now() + sent.resendAfterSeconds * 1000),
              onError: (err) => setSendError(translateMessage(errorMessage(err))),
            },
          );
        }}
      >
        {wait > 0 ? t('auth.mobile.resendIn', { seconds: wait }) : t('profile.proof.sendCode', { number })}
      </Button>
      <InputField
        label={t('profile.proof.codeLabel', { number })}
        error={error ?? sendError ?? undefined}
        name="proofCode"
        autoComplete="one-time-code"
        inputMode="numeric"
        pattern="[0-9]*"
        maxLength={6}
        value={value.currentCode ?? ''}
        onChange={(e) => onChange({ currentCode: e.target.value.replace(/\D/g, '') })}
      />
    </div>
  );
}
