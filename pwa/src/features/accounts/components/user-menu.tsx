import { ChevronDown, LogOut, Smartphone, UserPen } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { User } from '../../../../../api/contract/accounts';
import { Avatar } from '../../../components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../../components/ui/dropdown-menu';
import { useLogoutMutation } from '../api';

const EditProfileDialog = lazy(() => import('./edit-profile-dialog'));

/** The signed-in user's menu: initials, name and role; Edit Profile, Mobile number and updates, and Logout. */
export default function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const logout = useLogoutMutation();
  const [profileOpen, setProfileOpen] = useState(false);
  const [profileRequested, setProfileRequested] = useState(false);
  const roleLabel = t(`header.roles.${user.role}`);

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger className="flex items-center gap-2 rounded-full p-0.5 focus-visible:outline-2 focus-visible:outline-brand-600 sm:rounded-md sm:pr-2">
          <Avatar name={user.displayName} />
          {/* The name comes from this text (not aria-label), so what is seen is part of what is announced. */}
          <span className="sr-only">{t('header.userMenu', { name: user.displayName })}</span>
          <span
            aria-hidden="true"
            className="hidden max-w-40 flex-col items-start text-left leading-tight lg:flex"
          >
            <span className="truncate text-sm font-medium text-ink">{user.displayName}</span>
            <span className="text-xs text-muted">{roleLabel}</span>
          </span>
          <ChevronDown aria-hidden="true" className="hidden h-4 w-4 text-muted sm:block" />
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuLabel>
            <span className="block truncate font-semibold text-ink">{user.displayName}</span>
            <span className="block text-xs text-muted">{roleLabel}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() => {
              setProfileRequested(true);
              setProfileOpen(true);
            }}
          >
            <UserPen aria-hidden="true" className="h-4 w-4" />
            {t('header.editProfile')}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void navigate('/account/mobile')}>
            <Smartphone aria-hidden="true" className="h-4 w-4" />
            {t('header.mobileSettings')}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => {
              logout.mutate();
              void navigate('/');
            }}
          >
            <LogOut aria-hidden="true" className="h-4 w-4" />
            {t('header.logout')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {profileRequested && (
        <Suspense fallback={null}>
          <EditProfileDialog user={user} open={profileOpen} onOpenChange={setProfileOpen} />
        </Suspense>
      )}
    </>
  );
}
