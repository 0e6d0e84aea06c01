import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { toPaise } from '../../../../../api/contract/money';
import { PayoutSchema, type PayoutInput, type ShopLedger } from '../../../../../api/contract/payments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { LedgerBreakdown } from '../../../components/ledger-breakdown';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { EmptyState } from '../../../components/ui/empty-state';
import { InputField } from '../../../components/ui/field';
import { Skeleton } from '../../../components/ui/skeleton';
import { api, errorMessage } from '../../../lib/api-client';
import { formatPrice } from '../../../lib/format';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { translateMessage } from '../../../lib/i18n';
import { adminQueries } from '../api';
import { ErrorCard } from './error-card';

/** Paise, written the one way the app writes money. */
const inr = (paise: number) => formatPrice(paise / 100);
/** Rupees as an admin types them: digits, at most two of paise; commas and spaces are ignored. */
const RUPEES = /^\d{1,11}(\.\d{1,2})?$/;

type Fields = 'amountPaise' | 'reference';

/**
 * The shops' money (docs/product-rules.md §14, "Issue #48"): every shop with money in the ledger, its figures as
 * the two sums the jeweller sees (each line with its meaning) and its balance, and
 * "Mark payout made" to record a transfer with its bank reference. The server refuses a payout above the balance.
 */
export function PayoutsSection() {
  const { t } = useTranslation();
  const ledger = useQuery(adminQueries.ledger());
  const [shop, setShop] = useState<ShopLedger | null>(null);
  // The button that opened the dialog gets the focus back when it closes.
  const opener = useRef<HTMLButtonElement | null>(null);

  let body;
  if (ledger.isPending) body = <Skeleton className="h-32 w-full" />;
  else if (ledger.isError)
    body = (
      <ErrorCard
        message={t('admin.payouts.failed', { message: translateMessage(errorMessage(ledger.error)) })}
        onRetry={() => void ledger.refetch()}
      />
    );
  else if (ledger.data.shops.length === 0)
    body = (
      <Card>
        <EmptyState title={t('admin.payouts.empty')} />
      </Card>
    );
  else
    body = (
      <>
        <p className="text-sm text-muted">
          {t('admin.payouts.totals', {
            paid: inr(ledger.data.totals.paidPaise),
            commission: inr(ledger.data.totals.commissionPaise),
            balance: inr(ledger.data.totals.balancePaise),
            percent: ledger.data.commissionPercent,
          })}
        </p>
        <ul className="grid grid-cols-1 gap-3">
          {ledger.data.shops.map((s) => (
            <li key={s.sellerId}>
              <ShopCard
                shop={s}
                commissionPercent={ledger.data.commissionPercent}
                returnWindowDays={ledger.data.returnWindowDays}
                onPayout={(button) => {
                  opener.current = button;
                  setShop(s);
                }}
              />
            </li>
          ))}
        </ul>
      </>
    );

  return (
    <section aria-labelledby="admin-payouts-title" className="space-y-4">
      <h2 id="admin-payouts-title" className="text-2xl font-semibold text-ink">
        {t('admin.payouts.title')}
      </h2>
      {body}
      <PayoutDialog
        shop={shop}
        onOpenChange={(open) => !open && setShop(null)}
        onClosed={() => opener.current?.focus()}
      />
    </section>
  );
}

function ShopCard({
  shop,
  commissionPercent,
  returnWindowDays,
  onPayout,
}: {
  shop: ShopLedger;
  commissionPercent: number;
  returnWindowDays: number;
  onPayout: (button: HTMLButtonElement) => void;
}) {
  const { t } = useTranslation();
  const name = shop.shopName ?? t('admin.payouts.unnamed', { id: shop.sellerId });
  return (
    <Card className="space-y-3 p-4" data-testid="payout-shop" aria-label={name}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="min-w-0 font-semibold break-words text-brand-800">{name}</h3>
        <p className="text-sm text-ink">
          {t('admin.payouts.balance')}{' '}
          <span className="text-lg font-bold" data-testid="payout-balance">
            {inr(shop.balancePaise)}
          </span>
        </p>
      </div>
      <LedgerBreakdown
        ledger={shop}
        commissionPercent={commissionPercent}
        returnWindowDays={returnWindowDays}
        who="admin"
        testIdPrefix="payout-figure"
      />
      <Button
        size="sm"
        variant="outline"
        disabled={shop.balancePaise <= 0}
        onClick={(e) => onPayout(e.currentTarget)}
        aria-label={t('admin.payouts.markNamed', { name })}
      >
        {t('admin.payouts.mark')}
      </Button>
    </Card>
  );
}

/** The "Mark payout made" dialog: amount (prefilled with the balance) and the bank's reference. */
function PayoutDialog({
  shop,
  onOpenChange,
  onClosed,
}: {
  shop: ShopLedger | null;
  onOpenChange: (open: boolean) => void;
  onClosed: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={shop !== null} onOpenChange={onOpenChange}>
      <DialogContent
        closeLabel={t('common.close')}
        onCloseAutoFocus={(e) => {
          e.preventDefault();
          onClosed();
        }}
      >
        {shop && <PayoutForm key={shop.sellerId} shop={shop} onDone={() => onOpenChange(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function PayoutForm({ shop, onDone }: { shop: ShopLedger; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const name = shop.shopName ?? t('admin.payouts.unnamed', { id: shop.sellerId });
  const [amount, setAmount] = useState(() => (shop.balancePaise / 100).toFixed(2));
  const [reference, setReference] = useState('');
  const [errors, setErrors] = useState<FieldErrors<Fields | 'form'>>({});
  const record = useMutation({
    mutationFn: (input: PayoutInput) => api.call(API_ROUTES.adminPayout, input),
    onSuccess: (_answer, input) => {
      toast.success(t('admin.payouts.recorded', { amount: inr(input.amountPaise), name }));
      void queryClient.invalidateQueries({ queryKey: adminQueries.ledger().queryKey });
      onDone();
    },
    onError: (err) => {
      // A refused field shows at the field; anything else (more than the balance, a lost connection) below.
      const fields = apiFieldErrors<Fields>(err);
      setErrors(Object.keys(fields).length > 0 ? fields : { form: translateMessage(errorMessage(err)) });
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (record.isPending) return;
    const typed = amount.replace(/[\s,₹]/g, '');
    if (!RUPEES.test(typed)) {
      setErrors({ amountPaise: t('admin.payouts.amountInvalid') });
      return;
    }
    const parsed = PayoutSchema.safeParse({
      sellerId: shop.sellerId,
      amountPaise: toPaise(typed),
      reference,
    });
    if (!parsed.success) {
      setErrors(zodFieldErrors<Fields>(parsed.error));
      return;
    }
    setErrors({});
    record.mutate(parsed.data);
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>{t('admin.payouts.dialogTitle', { name })}</DialogTitle>
        <DialogDescription>
          {t('admin.payouts.dialogDescription', { balance: inr(shop.balancePaise) })}
        </DialogDescription>
      </DialogHeader>
      <div className="space-y-4">
        <InputField
          label={t('admin.payouts.amount')}
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          error={errors.amountPaise}
          onChange={(e) => {
            setAmount(e.target.value);
            setErrors((er) => ({ ...er, amountPaise: undefined, form: undefined }));
          }}
          required
          aria-required="true"
        />
        <InputField
          label={t('admin.payouts.reference')}
          hint={t('admin.payouts.referenceHint')}
          name="reference"
          autoComplete="off"
          maxLength={100}
          value={reference}
          error={errors.reference}
          onChange={(e) => {
            setReference(e.target.value);
            setErrors((er) => ({ ...er, reference: undefined, form: undefined }));
          }}
          required
          aria-required="true"
        />
        {errors.form && (
          <p role="alert" className="text-sm font-medium text-red-800" data-testid="payout-error">
            {errors.form}
          </p>
        )}
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button type="button" variant="outline" disabled={record.isPending}>
            {t('common.cancel')}
          </Button>
        </DialogClose>
        <Button type="submit" loading={record.isPending}>
          {t('admin.payouts.confirm')}
        </Button>
      </DialogFooter>
    </form>
  );
}
