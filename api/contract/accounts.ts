import { z } from 'zod';
import { HIDDEN_CHARACTERS_MESSAGE, hasHiddenCharacters, USER_ROLES, type UserRole } from './constants';
import { looksLikePhone, normalizeIndianMobile } from './indian-mobile';
import type { SellerProfile } from './sellers';

/** Every accounts message of the product rules (docs/product-rules.md §5, §8), word for word. Locales hold them under messages.accounts.<id>. */
export const ACCOUNT_MESSAGES = {
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  passwordMin: 'Password must be at least 8 characters',
  passwordMax: 'Password cannot exceed 200 characters.',
  nameRequired: 'Name is required',
  atLeastOneField: 'At least one field must be provided to update.',
  unknownFields: 'Unknown fields are not allowed.',
  displayNameEmpty: 'Display name cannot be empty.',
  displayNameMax: 'Display name cannot exceed 100 characters.',
  invalidEmail: 'Invalid email address.',
  invalidAvatarUrl: 'Invalid URL for avatar.',
  phoneMin: 'Phone number must be at least 5 characters.',
  phoneMax: 'Phone number cannot exceed 20 characters.',
  addressMax: 'Address cannot exceed 500 characters.',
  noProfileChanges: 'No changes were made to your profile.',
  currentPasswordRequired: 'Current password is required',
  newPasswordMin: 'Password must be at least 8 characters long',
  newPasswordLower: 'Password must contain at least one lowercase letter',
  newPasswordUpper: 'Password must contain at least one uppercase letter',
  newPasswordNumber: 'Password must contain at least one number',
  newPasswordSpecial: 'Password must contain at least one special character',
  newPasswordsMismatch: 'New passwords do not match',
  noChanges: 'No changes were made.',
  loginFailed: 'Login failed',
  loginFailedRetry: 'Login failed. Please try again.',
  registrationFailed: 'Registration failed. Please try again.',
  emailInUse: 'This email is already registered. Please try logging in instead.',
  invalidDisplayName: "Please provide a valid display name that isn't empty.",
  displayNameErrorPrefix: 'Please check your display name: ',
  profileUpdated: 'Profile updated successfully!',
  profileUpdateFailed: 'Failed to update profile. Please try again.',
  mustBeLoggedIn: 'You must be logged in to update your profile.',
  passwordChanged: 'Password changed successfully!',
  passwordChangeFailed: 'Failed to change password. Please try again.',
  sessionCheckFailed: 'Session check failed',
  // Server-side texts of ours (the product rules leave them open).
  invalidCredentials: 'Invalid email or password.',
  emailAlreadyInUse: 'Email already in use',
  currentPasswordWrong: 'Current password is incorrect.',
  adminSignupRefused: 'Admin accounts cannot be created through registration.',
  tooManyLoginAttempts: 'Too many failed login attempts. Please wait {minutes} minute(s) and try again.',
  tooManyRegistrations:
    'Too many accounts were created from this network. Please wait {minutes} minute(s) and try again.',
  tooManyPasswordAttempts: 'Too many incorrect passwords. Please wait {minutes} minute(s) and try again.',
  loginSlowDown: 'Too many failed attempts. Please wait {seconds} second(s) and try again.',
  emailChangeNeedsPassword: 'Enter your current password to change your email.',
  emailUnavailable: 'This email cannot be used for your account.',
  emailReserved: 'This email address is reserved by Nagai and cannot be used. Please use your own email.',
  proofNeedsPassword: 'Enter your current password to make this change.',
  proofNeedsCode: 'Enter the code we sent to your mobile number to make this change.',
  proofCodeInvalid: 'Enter the 6-digit code sent to your mobile number.',
  nameHiddenCharacters: HIDDEN_CHARACTERS_MESSAGE,
  loginMobileInvalid: 'Enter your email, or your 10-digit Indian mobile number starting with 6, 7, 8 or 9.',
} as const;
export type AccountMessageId = keyof typeof ACCOUNT_MESSAGES;

const M = ACCOUNT_MESSAGES;
const visible = (v: string) => !hasHiddenCharacters(v);
/** Our own media (an image stored by Nagai, served at /media/<key>): nothing else is fetched by other people's browsers. */
export const isOwnMediaPath = (v: string) => /^\/media\/[A-Za-z0-9._-]{1,200}$/.test(v);
/**
 * The domain of the stand-in addresses of mobile-only accounts (`91XXXXXXXXXX@mobile.nagai.invalid`): nobody
 * may register or change to one (or a subdomain of it), in any letter case.
 */
export const RESERVED_EMAIL_DOMAIN = 'mobile.nagai.invalid';
export const isReservedEmail = (email: string) => {
  const domain = email.trim().toLowerCase().split('@').pop() ?? '';
  return domain === RESERVED_EMAIL_DOMAIN || domain.endsWith(`.${RESERVED_EMAIL_DOMAIN}`);
};

/**
 * The proof a change that gives a new way into the account needs (the mobile, the e-mail, the password): the
 * current password, or, for a mobile-only account (no password), a code sent to its current number
 * (POST /_api/user/reauth/code). The server decides which one the account needs.
 */
export const ProofFields = {
  currentPassword: z.string({ error: M.proofNeedsPassword }).max(200, M.passwordMax).optional(),
  currentCode: z
    .string({ error: M.proofCodeInvalid })
    .trim()
    .regex(/^[0-9]{6}$/, M.proofCodeInvalid)
    .optional(),
};
export type ProofInput = { currentPassword?: string; currentCode?: string };
const PROOF_KEYS = new Set(['currentPassword', 'currentCode']);

const strict = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? M.unknownFields : undefined),
  });

const EmailSchema = z.email({ error: M.emailRequired });

/**
 * Sign-in with a password (issue #49): `email` is the account's e-mail, or its verified mobile number (an Indian
 * number in any of the forms mobile sign-in accepts, normalised to +91 and ten digits), so a mobile-only account
 * that set a password can use it.
 */
export const LoginSchema = strict({
  email: z
    .string({ error: M.emailRequired })
    .trim()
    .max(254, M.emailRequired)
    .transform((v, ctx) => {
      if (looksLikePhone(v)) {
        const mobile = normalizeIndianMobile(v);
        if (mobile) return mobile;
        ctx.addIssue({ code: 'custom', message: M.loginMobileInvalid });
        return z.NEVER;
      }
      const email = v.toLowerCase();
      if (EmailSchema.safeParse(email).success) return email;
      ctx.addIssue({ code: 'custom', message: M.emailRequired });
      return z.NEVER;
    }),
  password: z.string({ error: M.passwordRequired }).min(1, M.passwordRequired).max(200, M.passwordMax),
});
export type LoginInput = z.infer<typeof LoginSchema>;

export const RegisterSchema = strict({
  email: z
    .string({ error: M.invalidEmail })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: M.invalidEmail })),
  password: z.string({ error: M.passwordMin }).min(8, M.passwordMin).max(200, M.passwordMax),
  displayName: z
    .string({ error: M.nameRequired })
    .trim()
    .min(1, M.nameRequired)
    .max(100, M.displayNameMax)
    .refine(visible, M.nameHiddenCharacters),
  fullName: z.string().trim().max(200).refine(visible, M.nameHiddenCharacters).optional(),
  role: z.enum(USER_ROLES).optional(),
  adminSignupCode: z.string().max(200).optional(),
});
export type RegisterInput = z.infer<typeof RegisterSchema>;

/** Empty strings become null: the form sends empty optional values as null. */
const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const ProfileUpdateSchema = strict({
  displayName: z
    .string({ error: M.displayNameEmpty })
    .trim()
    .min(1, M.displayNameEmpty)
    .max(100, M.displayNameMax)
    .refine(visible, M.nameHiddenCharacters)
    .optional(),
  email: z
    .string({ error: M.invalidEmail })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: M.invalidEmail }))
    .optional(),
  // Only our own media: the avatar is fetched by the jeweller's browser when the call rings, so any other
  // address would let a caller make it fetch what they like (and learn when it rang).
  avatarUrl: z
    .preprocess(
      emptyToNull,
      z.string({ error: M.invalidAvatarUrl }).trim().refine(isOwnMediaPath, M.invalidAvatarUrl).nullable(),
    )
    .optional(),
  phone: z
    .preprocess(
      emptyToNull,
      z.string({ error: M.phoneMin }).trim().min(5, M.phoneMin).max(20, M.phoneMax).nullable(),
    )
    .optional(),
  address: z
    .preprocess(emptyToNull, z.string({ error: M.addressMax }).trim().max(500, M.addressMax).nullable())
    .optional(),
  // Needed to change the email (a stolen session must not move the account to another address).
  ...ProofFields,
})
  .refine((v) => Object.entries(v).some(([k, x]) => !PROOF_KEYS.has(k) && x !== undefined), {
    error: M.atLeastOneField,
  })
  .refine((v) => v.email === undefined || !!v.currentPassword || !!v.currentCode, {
    error: M.emailChangeNeedsPassword,
    path: ['currentPassword'],
  });
export type ProfileUpdateInput = z.infer<typeof ProfileUpdateSchema>;

export const NewPasswordSchema = z
  .string({ error: M.newPasswordMin })
  .min(8, M.newPasswordMin)
  .max(200, M.passwordMax)
  .regex(/[a-z]/, M.newPasswordLower)
  .regex(/[A-Z]/, M.newPasswordUpper)
  .regex(/[0-9]/, M.newPasswordNumber)
  .regex(/[^A-Za-z0-9]/, M.newPasswordSpecial);

/**
 * Changes the password, or sets the first one of a mobile-only account: the current password, or (an account
 * without one) a code sent to its mobile (ProofFields).
 */
export const PasswordChangeSchema = strict({
  currentPassword: z.string({ error: M.currentPasswordRequired }).max(200, M.passwordMax).optional(),
  currentCode: ProofFields.currentCode,
  newPassword: NewPasswordSchema,
  confirmNewPassword: z.string({ error: M.newPasswordsMismatch }),
})
  .refine((v) => !!v.currentPassword || !!v.currentCode, {
    error: M.currentPasswordRequired,
    path: ['currentPassword'],
  })
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    error: M.newPasswordsMismatch,
    path: ['confirmNewPassword'],
  });
export type PasswordChangeInput = z.infer<typeof PasswordChangeSchema>;

/** The user as the API returns it (session, login, registration, profile update). */
export interface User {
  id: number;
  email: string;
  displayName: string;
  fullName: string | null;
  role: UserRole;
  avatarUrl: string | null;
  phone: string | null;
  address: string | null;
  createdAt: string;
  /** Failed sign-ins on the account since the owner last dismissed the notice (shown to the owner only). */
  failedLogins: { count: number; lastAt: string } | null;
  sellerProfile: SellerProfile | null;
}

/** GET /_api/auth/session: the signed-in user, or null for a visitor. */
export interface SessionResponse {
  user: User | null;
}

/** Login, registration and profile update answer with the user. */
export interface UserResponse {
  user: User;
}

/** Logout and password change answer with a success flag. */
export interface SuccessResponse {
  success: true;
}
