import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';

type AuthTab = 'login' | 'register';

/** Log In (default) and Create Account tabs; the open tab lives in `?tab=register` so links can open it. */
export function AuthTabs({ login, register }: { login: ReactNode; register: ReactNode }) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: AuthTab = searchParams.get('tab') === 'register' ? 'register' : 'login';
  return (
    <Tabs
      value={tab}
      onValueChange={(value) =>
        setSearchParams(
          (prev) => {
            const next = new URLSearchParams(prev);
            if (value === 'register') next.set('tab', 'register');
            else next.delete('tab');
            return next;
          },
          { replace: true },
        )
      }
    >
      <TabsList aria-label={t('auth.tabs.label')}>
        <TabsTrigger value="login">{t('auth.tabs.login')}</TabsTrigger>
        <TabsTrigger value="register">{t('auth.tabs.register')}</TabsTrigger>
      </TabsList>
      <TabsContent value="login">{login}</TabsContent>
      <TabsContent value="register">{register}</TabsContent>
    </Tabs>
  );
}
