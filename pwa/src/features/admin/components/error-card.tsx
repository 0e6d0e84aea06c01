import { CircleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Card, CardContent } from '../../../components/ui/card';

/** The product rules' 'Error' card of the admin lists, with the server's message. */
export function ErrorCard({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Card role="alert" className="border-red-200 bg-red-50">
      <CardContent className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3">
          <CircleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-red-800" />
          <div>
            <p className="font-semibold text-red-900">{t('admin.error')}</p>
            <p className="text-sm text-red-900">{message}</p>
          </div>
        </div>
        <Button variant="outline" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      </CardContent>
    </Card>
  );
}
