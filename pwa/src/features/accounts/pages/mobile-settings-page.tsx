import * as Switch from '@radix-ui/react-switch';
import { useQuery } from '@tanstack/react-query';
import { MessageSquareText, Smartphone } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  formatIndianMobile,
  normalizeIndianMobile,
  type CodeChannel,
  type NoticeSettings,
  type NoticeSettingsInput,
} from '../../../../../api/contract/mobile';
import { FormAlert } from '../../../components/form-alert';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { InputField } from '../../../components/ui/field';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  mobileAvailabilityQuery,
  noticeSettingsQuery,
  useNoticeSettingsMutation,
  useProfileMobileCodeMutation,
  useProfileMobileVerifyMutation,
} from '../api';
import { useCountdown } from '../utils/use-countdown';
import { CurrentProof, type ProofValue } from '../components/current-proof';

const errorText = (err: unknown) => translateMessage(errorMessage(err));

/**
 * "Mobile number and updates" (issue #37, docs/product-rules.md "Mobile sign-in and notices"): the signed-in
 * account adds or changes its mobile number with a code sent to it, and turns the notices by SMS or WhatsApp
 * on or off beside the consent wording that is stored with the choice, in English or Tamil.
 */
export default function MobileSettingsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('profile.mobile.title'));
  const availability = useQuery(mobileAvailabilityQuery());
  const settings = useQuery(noticeSettingsQuery());

  return (
    <div className="mx-auto max-w-2xl space-y-6 px-3 py-6 sm:px-4 md:py-10">
      <header className="space-y-2">
        <h1 className="text-2xl font-bold text-ink md:text-3xl">{t('profile.mobile.title')}</h1>
        <p className="text-muted">{t('profile.mobile.description')}</p>
      </header>
      {settings.isPending || availability.isPending ? (
        <Spinner className="h-6 w-6 text-muted" />
      ) : settings.isError || !settings.data ? (
        <FormAlert message={errorText(settings.error)} />
      ) : (
        <>
          <MobileNumberCard
            settings={settings.data}
            available={!!availability.data?.available}
            whatsapp={!!availability.data?.channels.includes('whatsapp')}
          />
          <NoticesCard settings={settings.data} />
        </>
      )}
    </div>
  );
}

function MobileNumberCard({
  settings,
  available,
  whatsapp,
}: {
  settings: NoticeSettings;
  available: boolean;
  whatsapp: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const send = useProfileMobileCodeMutation();
  const verify = useProfileMobileVerifyMutation();
  const [editing, setEditing] = useState(false);
  const [step, setStep] = useState<'number' | 'code'>('number');
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A new number is a new way into the account: it needs the current password or a code to the current number.
  const [proof, setProof] = useState<ProofValue>({});
  const [resendAt, setResendAt] = useState(0);
  const wait = useCountdown(resendAt);
  const normalized = normalizeIndianMobile(mobile);

  const sendCode = (channel: CodeChannel) => {
    setError(null);
    if (!normalized) return setError(t('messages.mobile.invalidMobile'));
    send.mutate(
      { mobile: normalized, channel, ...proof },
      {
        onSuccess: (sent) => {
          setResendAt(Date.now() + sent.resendAfterSeconds * 1000);
          setCode('');
          setStep('code');
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
        onSuccess: () => {
          toast.success(t('profile.mobile.verified'));
          setEditing(false);
          setStep('number');
          setMobile('');
          setCode('');
        },
        onError: (err) => setError(errorText(err)),
      },
    );
  };
  const open = editing || (!settings.mobile && available);

  return (
    <section aria-labelledby={`${id}-title`}>
      <Card>
        <CardHeader>
          <CardTitle id={`${id}-title`} className="flex items-center gap-2 text-lg">
            <Smartphone aria-hidden="true" className="h-5 w-5 text-brand-700" />
            {t('profile.mobile.numberTitle')}
          </CardTitle>
          <CardDescription data-testid="verified-mobile">
            {settings.mobile
              ? t('profile.mobile.current', { number: formatIndianMobile(settings.mobile) })
              : t('profile.mobile.none')}
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-4">
          {!available && <p className="text-sm text-muted">{t('profile.mobile.unavailable')}</p>}
          {available && settings.mobile && !editing && (
            <Button type="button" variant="outline" onClick={() => setEditing(true)}>
              {t('profile.mobile.change')}
            </Button>
          )}
          {available && open && (
            <>
              <FormAlert message={error} />
              {step === 'number' ? (
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
                  <CurrentProof
                    hasPassword={settings.hasPassword}
                    mobile={settings.mobile}
                    value={proof}
                    onChange={setProof}
                  />
                  <div className="flex flex-col gap-2 sm:flex-row">
                    <Button type="submit" loading={send.isPending}>
                      {t('auth.mobile.sendCode')}
                    </Button>
                    {whatsapp && (
                      <Button
                        type="button"
                        variant="outline"
                        disabled={send.isPending}
                        onClick={() => sendCode('whatsapp')}
                      >
                        {t('auth.mobile.sendWhatsApp')}
                      </Button>
                    )}
                    {editing && (
                      <Button type="button" variant="link" onClick={() => setEditing(false)}>
                        {t('common.cancel')}
                      </Button>
                    )}
                  </div>
                </form>
              ) : (
                <form noValidate onSubmit={onCode} className="space-y-3">
                  <InputField
                    label={t('auth.mobile.codeLabel')}
                    hint={t('auth.mobile.codeSent', { number: formatIndianMobile(normalized!) })}
                    name="one-time-code"
                    autoComplete="one-time-code"
                    inputMode="numeric"
                    pattern="[0-9]*"
                    maxLength={6}
                    value={code}
                    onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
                  />
                  <Button type="submit" loading={verify.isPending}>
                    {t('profile.mobile.verify')}
                  </Button>
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
                </form>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}

/** A labelled group of radio buttons that saves on change. */
function ChoiceGroup<T extends string>({
  legend,
  name,
  value,
  options,
  disabled,
  onChange,
}: {
  legend: string;
  name: string;
  value: T;
  options: readonly { value: T; label: string; lang?: string }[];
  disabled: boolean;
  onChange: (value: T) => void;
}) {
  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="text-sm font-medium text-ink">{legend}</legend>
      <div className="flex flex-wrap gap-2">
        {options.map((o) => (
          <label
            key={o.value}
            lang={o.lang}
            className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-stone-300 px-3 py-2 text-sm text-ink has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
          >
            <input
              type="radio"
              name={name}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="h-4 w-4 accent-brand-700"
            />
            {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function NoticesCard({ settings }: { settings: NoticeSettings }) {
  const { t } = useTranslation();
  const id = useId();
  const save = useNoticeSettingsMutation();
  // While saving, show what was asked for (set in the click itself, so a controlled radio never flips back);
  // the server's answer replaces it.
  const [asked, setAsked] = useState<Partial<NoticeSettingsInput> | null>(null);
  const shown = asked ? { ...settings, ...asked } : settings;
  const canTurnOn = !!settings.mobile;
  const offered = settings.channels.length > 0;

  const change = (input: Partial<NoticeSettingsInput>) => {
    // The quiet hours (21:00-09:00) are kept in the time zone of the browser that turns updates on.
    const timeZone = input.notices ? Intl.DateTimeFormat().resolvedOptions().timeZone : undefined;
    setAsked(input);
    const next: NoticeSettingsInput = {
      notices: shown.notices,
      ...input,
      ...(timeZone ? { timeZone } : {}),
    };
    save.mutate(next, {
      onSettled: () => setAsked(null),
      onSuccess: (saved) =>
        toast.success(
          input.notices === undefined
            ? t('profile.mobile.saved')
            : t(saved.notices ? 'profile.mobile.turnedOn' : 'profile.mobile.turnedOff'),
        ),
      onError: (err) => toast.error(t('profile.mobile.saveFailed'), { description: errorText(err) }),
    });
  };

  return (
    <section aria-labelledby={`${id}-title`}>
      <Card>
        <CardHeader>
          <CardTitle id={`${id}-title`} className="flex items-center gap-2 text-lg">
            <MessageSquareText aria-hidden="true" className="h-5 w-5 text-brand-700" />
            {t('profile.mobile.noticesTitle')}
          </CardTitle>
          <CardDescription>{t('profile.mobile.noticesDescription')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {!offered ? (
            <p className="text-sm text-muted">{t('profile.mobile.noticesUnavailable')}</p>
          ) : (
            <>
              <div className="flex items-start justify-between gap-4 rounded-lg border border-stone-200 p-4">
                <div className="min-w-0 space-y-1">
                  <label htmlFor={`${id}-switch`} className="font-medium text-ink">
                    {t('profile.mobile.switch')}
                  </label>
                  {/* The wording stored with the consent: in the language the messages will come in. */}
                  <p id={`${id}-wording`} lang={shown.locale} className="text-sm text-muted">
                    {settings.wording[shown.locale]}
                  </p>
                  {!canTurnOn && (
                    <p id={`${id}-needs`} className="text-sm font-medium text-ink">
                      {t('profile.mobile.needsMobile')}
                    </p>
                  )}
                </div>
                <div className="flex items-center gap-2">
                  {asked && <Spinner className="h-4 w-4 text-muted" />}
                  <Switch.Root
                    id={`${id}-switch`}
                    checked={shown.notices}
                    disabled={!!asked || (!canTurnOn && !settings.notices)}
                    aria-describedby={canTurnOn ? `${id}-wording` : `${id}-wording ${id}-needs`}
                    onCheckedChange={(notices) => change({ notices })}
                    className="relative inline-flex h-6 w-11 shrink-0 cursor-pointer items-center rounded-full bg-stone-500 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-70 data-[state=checked]:bg-brand-700"
                  >
                    <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
                  </Switch.Root>
                </div>
              </div>
              <ChoiceGroup
                legend={t('profile.mobile.channel')}
                name={`${id}-channel`}
                value={shown.channel}
                disabled={!!asked}
                options={settings.channels.map((c) => ({
                  value: c,
                  label: t(c === 'sms' ? 'profile.mobile.sms' : 'profile.mobile.whatsapp'),
                }))}
                onChange={(channel) => change({ channel })}
              />
              <ChoiceGroup
                legend={t('profile.mobile.language')}
                name={`${id}-language`}
                value={shown.locale}
                disabled={!!asked}
                options={[
                  { value: 'en', label: 'English', lang: 'en' },
                  { value: 'ta', label: 'தமிழ்', lang: 'ta' },
                ]}
                onChange={(locale) => change({ locale })}
              />
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
