import * as Collapsible from '@radix-ui/react-collapsible';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  ACCOUNT_MESSAGES,
  PasswordChangeSchema,
  ProfileUpdateSchema,
  type PasswordChangeInput,
  type ProfileUpdateInput,
  type User,
} from '../../../../../api/contract/accounts';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { MOBILE_MESSAGES } from '../../../../../api/contract/mobile';
import { InputField, PasswordInputField, TextareaField } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { noticeSettingsQuery, useChangePasswordMutation, useUpdateProfileMutation } from '../api';
import { CurrentProof, type ProofValue } from './current-proof';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/form-errors';

type ProfileField = 'displayName' | 'email' | 'phone' | 'address' | 'avatarUrl';
type PasswordField = 'currentPassword' | 'newPassword' | 'confirmNewPassword';
type Errors = FieldErrors<ProfileField | PasswordField | 'emailPassword'>;

const PROFILE_FIELDS: readonly ProfileField[] = ['displayName', 'email', 'phone', 'address', 'avatarUrl'];
const OPTIONAL_FIELDS = new Set<ProfileField>(['phone', 'address', 'avatarUrl']);

function initialProfile(user: User): Record<ProfileField, string> {
  return {
    displayName: user.displayName ?? '',
    email: user.email ?? '',
    phone: user.phone ?? '',
    address: user.address ?? '',
    avatarUrl: user.avatarUrl ?? '',
  };
}

/**
 * The fields that really changed, normalised as the server stores them: trimmed, empty optional values as
 * null. `touched` says whether anything was typed at all.
 */
export function profileChanges(user: User, values: Record<ProfileField, string>) {
  const before = initialProfile(user);
  const changes: Record<string, string | null> = {};
  let touched = false;
  for (const field of PROFILE_FIELDS) {
    if (values[field] !== before[field]) touched = true;
    let next = values[field].trim();
    if (field === 'email') next = next.toLowerCase();
    const prev = field === 'email' ? before[field].trim().toLowerCase() : before[field].trim();
    if (next === prev) continue;
    changes[field] = next === '' && OPTIONAL_FIELDS.has(field) ? null : next;
  }
  return { changes: changes as ProfileUpdateInput, touched, changed: Object.keys(changes).length > 0 };
}

/** 'Edit Your Profile' (docs/product-rules.md §2): profile fields plus a collapsible Change Password section. */
export default function EditProfileDialog({
  user,
  open,
  onOpenChange,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('common.close')} aria-describedby="edit-profile-description">
        <DialogHeader>
          <DialogTitle>{t('profile.title')}</DialogTitle>
          <DialogDescription id="edit-profile-description">{t('profile.description')}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open: it fills from the current user each time and forgets passwords on close. */}
        <ProfileForm user={user} onDone={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ProfileForm({ user, onDone }: { user: User; onDone: () => void }) {
  const { t } = useTranslation();
  const updateProfile = useUpdateProfileMutation();
  const changePassword = useChangePasswordMutation();
  const [values, setValues] = useState(() => initialProfile(user));
  const [passwords, setPasswords] = useState<Record<PasswordField, string>>({
    currentPassword: '',
    newPassword: '',
    confirmNewPassword: '',
  });
  const [visible, setVisible] = useState<Record<PasswordField, boolean>>({
    currentPassword: false,
    newPassword: false,
    confirmNewPassword: false,
  });
  const [passwordOpen, setPasswordOpen] = useState(false);
  // A new email or password is a new way in (issue #46): it needs the current password, or for an account
  // without one a code to its number (the settings say which).
  const settings = useQuery(noticeSettingsQuery());
  const hasPassword = settings.data?.hasPassword ?? true;
  const mobile = settings.data?.mobile ?? null;
  const [emailProof, setEmailProof] = useState<ProofValue>({});
  const [passwordProof, setPasswordProof] = useState<ProofValue>({});
  const [emailPasswordVisible, setEmailPasswordVisible] = useState(false);
  const emailChanging = values.email.trim().toLowerCase() !== user.email.trim().toLowerCase();
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const setValue = (field: ProfileField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const setPassword = (field: PasswordField, value: string) => {
    setPasswords((p) => ({ ...p, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const profile = profileChanges(user, values);
    const wantsPassword = Object.values(passwords).some((p) => p !== '') || !!passwordProof.currentCode;

    if (!profile.changed && !wantsPassword) {
      toast.info(t(profile.touched ? 'messages.accounts.noProfileChanges' : 'messages.accounts.noChanges'));
      onDone();
      return;
    }

    // Validate both parts before sending anything, with the contract's schemas and messages.
    let nextErrors: Errors = {};
    let profileInput: ProfileUpdateInput | undefined;
    let passwordInput: PasswordChangeInput | undefined;
    if (profile.changed) {
      const input: ProfileUpdateInput =
        profile.changes.email !== undefined ? { ...profile.changes, ...emailProof } : profile.changes;
      const parsed = ProfileUpdateSchema.safeParse(input);
      if (parsed.success) profileInput = input;
      else {
        const { currentPassword, ...fieldErrors } = zodFieldErrors<ProfileField | 'currentPassword'>(
          parsed.error,
        );
        nextErrors = {
          ...nextErrors,
          ...fieldErrors,
          ...(currentPassword ? { emailPassword: currentPassword } : {}),
        };
      }
    }
    if (wantsPassword) {
      const parsed = PasswordChangeSchema.safeParse({
        newPassword: passwords.newPassword,
        confirmNewPassword: passwords.confirmNewPassword,
        ...(hasPassword ? { currentPassword: passwords.currentPassword } : passwordProof),
      });
      if (parsed.success) passwordInput = parsed.data;
      else nextErrors = { ...nextErrors, ...zodFieldErrors<PasswordField>(parsed.error) };
      if (!parsed.success) setPasswordOpen(true);
    }
    if (Object.keys(nextErrors).length > 0) {
      setErrors(nextErrors);
      focusFirstError();
      return;
    }

    setSaving(true);
    let ok = true;
    if (profileInput) {
      try {
        await updateProfile.mutateAsync(profileInput);
        toast.success(t('messages.accounts.profileUpdated'));
      } catch (err) {
        ok = false;
        const message = (err as Error).message;
        const passwordWrong =
          message === ACCOUNT_MESSAGES.currentPasswordWrong ||
          message === ACCOUNT_MESSAGES.emailChangeNeedsPassword ||
          message === ACCOUNT_MESSAGES.proofNeedsPassword ||
          message === ACCOUNT_MESSAGES.proofNeedsCode ||
          message === MOBILE_MESSAGES.wrongCode ||
          message === MOBILE_MESSAGES.codeExpired;
        setErrors((e) => ({
          ...e,
          ...apiFieldErrors<ProfileField>(err),
          ...(passwordWrong ? { emailPassword: translateMessage(message) } : {}),
        }));
        const notSignedIn = err instanceof ApiError && err.status === 401;
        toast.error(
          t(notSignedIn ? 'messages.accounts.mustBeLoggedIn' : 'messages.accounts.profileUpdateFailed'),
          {
            description: notSignedIn ? undefined : translateMessage((err as Error).message),
          },
        );
      }
    }
    if (passwordInput && ok) {
      try {
        await changePassword.mutateAsync(passwordInput);
        toast.success(t('messages.accounts.passwordChanged'));
      } catch (err) {
        ok = false;
        const message = (err as Error).message;
        const fieldErrors = apiFieldErrors<PasswordField>(err);
        if (
          message === ACCOUNT_MESSAGES.currentPasswordWrong ||
          message === ACCOUNT_MESSAGES.proofNeedsCode ||
          message === MOBILE_MESSAGES.wrongCode ||
          message === MOBILE_MESSAGES.codeExpired
        )
          fieldErrors.currentPassword = translateMessage(message);
        setErrors((e) => ({ ...e, ...fieldErrors }));
        toast.error(t('messages.accounts.passwordChangeFailed'), { description: translateMessage(message) });
      }
    }
    setSaving(false);
    if (ok) onDone();
  }

  const passwordField = (field: PasswordField, labelKey: string, autoComplete: string, hintKey?: string) => (
    <PasswordInputField
      label={t(labelKey)}
      error={errors[field]}
      hint={hintKey ? t(hintKey) : undefined}
      name={field}
      autoComplete={autoComplete}
      value={passwords[field]}
      onChange={(e) => setPassword(field, e.target.value)}
      visible={visible[field]}
      onVisibleChange={(v) => setVisible((s) => ({ ...s, [field]: v }))}
      showLabel={t('common.showPassword')}
      hideLabel={t('common.hidePassword')}
    />
  );

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-4">
      <fieldset className="space-y-4" disabled={saving}>
        <legend className="sr-only">{t('profile.profileSection')}</legend>
        <InputField
          label={t('profile.displayName')}
          error={errors.displayName}
          name="displayName"
          autoComplete="nickname"
          value={values.displayName}
          onChange={(e) => setValue('displayName', e.target.value)}
        />
        <InputField
          label={t('profile.email')}
          error={errors.email}
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={(e) => setValue('email', e.target.value)}
        />
        {emailChanging &&
          (hasPassword || !mobile ? (
            <PasswordInputField
              label={t('profile.emailPassword')}
              error={errors.emailPassword}
              name="emailPassword"
              autoComplete="current-password"
              value={emailProof.currentPassword ?? ''}
              onChange={(e) => {
                setEmailProof({ currentPassword: e.target.value });
                setErrors((er) => ({ ...er, emailPassword: undefined }));
              }}
              visible={emailPasswordVisible}
              onVisibleChange={setEmailPasswordVisible}
              showLabel={t('common.showPassword')}
              hideLabel={t('common.hidePassword')}
            />
          ) : (
            <CurrentProof
              hasPassword={false}
              mobile={mobile}
              value={emailProof}
              onChange={(v) => {
                setEmailProof(v);
                setErrors((er) => ({ ...er, emailPassword: undefined }));
              }}
              error={errors.emailPassword}
            />
          ))}
        <InputField
          label={t('profile.phone')}
          error={errors.phone}
          name="phone"
          type="tel"
          autoComplete="tel"
          value={values.phone}
          onChange={(e) => setValue('phone', e.target.value)}
        />
        <TextareaField
          label={t('profile.address')}
          error={errors.address}
          name="address"
          autoComplete="street-address"
          rows={3}
          value={values.address}
          onChange={(e) => setValue('address', e.target.value)}
        />
        <InputField
          label={t('profile.avatarUrl')}
          error={errors.avatarUrl}
          hint={t('profile.avatarUrlHint')}
          name="avatarUrl"
          type="url"
          inputMode="url"
          value={values.avatarUrl}
          onChange={(e) => setValue('avatarUrl', e.target.value)}
        />
      </fieldset>

      <Collapsible.Root
        open={passwordOpen}
        onOpenChange={setPasswordOpen}
        className="rounded-lg border border-stone-200"
      >
        <Collapsible.Trigger
          type="button"
          className="flex w-full items-center justify-between gap-2 rounded-lg px-4 py-3 text-left text-sm font-semibold text-ink hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        >
          <span className="flex items-center gap-2">
            <KeyRound aria-hidden="true" className="h-4 w-4 text-brand-700" />
            {t('profile.changePassword')}
          </span>
          <ChevronDown
            aria-hidden="true"
            className={`h-4 w-4 transition-transform ${passwordOpen ? 'rotate-180' : ''}`}
          />
        </Collapsible.Trigger>
        <Collapsible.Content>
          <fieldset className="space-y-4 px-4 pb-4" disabled={saving}>
            <legend className="sr-only">{t('profile.changePassword')}</legend>
            {hasPassword || !mobile ? (
              passwordField('currentPassword', 'profile.currentPassword', 'current-password')
            ) : (
              <CurrentProof
                hasPassword={false}
                mobile={mobile}
                value={passwordProof}
                onChange={(v) => {
                  setPasswordProof(v);
                  setErrors((er) => ({ ...er, currentPassword: undefined }));
                }}
                error={errors.currentPassword}
              />
            )}
            {passwordField('newPassword', 'profile.newPassword', 'new-password', 'profile.newPasswordHint')}
            {passwordField('confirmNewPassword', 'profile.confirmNewPassword', 'new-password')}
          </fieldset>
        </Collapsible.Content>
      </Collapsible.Root>

      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={saving}>
            {t('common.cancel')}
          </Button>
        </DialogClose>
        <Button type="submit" loading={saving}>
          {saving ? t('profile.saving') : t('profile.save')}
        </Button>
      </DialogFooter>
    </form>
  );
}

function focusFirstError() {
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>('[role="dialog"] [aria-invalid="true"]')?.focus();
  });
}
