import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LIMITS } from '../../../../../api/contract/constants';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { LoginForm } from '../../accounts/public';

/** 'Login to Start Video Call': after a successful login a customer's call starts 200 ms later (docs/product-rules.md §1). */
export default function LoginToCallDialog({
  open,
  onOpenChange,
  onCustomerLogin,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCustomerLogin: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t('common.close')}>
        <DialogHeader>
          <DialogTitle>{t('calls.login.title')}</DialogTitle>
          <DialogDescription>{t('calls.login.description')}</DialogDescription>
        </DialogHeader>
        <LoginForm
          onSuccess={(user) => {
            onOpenChange(false);
            if (user.role === 'customer') setTimeout(onCustomerLogin, LIMITS.callAfterLoginDelayMs);
          }}
        />
        {/* A first-time visitor has no account yet: the way to make one (issue #40). */}
        <p className="text-sm text-muted">
          {t('calls.login.noAccount')}{' '}
          <Link
            to="/customer/login?tab=register"
            onClick={() => onOpenChange(false)}
            className="font-medium text-brand-700 underline"
          >
            {t('calls.login.createAccount')}
          </Link>
        </p>
      </DialogContent>
    </Dialog>
  );
}
