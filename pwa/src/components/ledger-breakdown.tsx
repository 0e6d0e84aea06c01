import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ShopLedger } from '../../../api/contract/payments';
import { formatPrice } from '../lib/format';

/** Paise, written the one way the app writes money; a negative amount with a minus sign before the ₹. */
const inr = (paise: number) => (paise < 0 ? `−${formatPrice(-paise / 100)}` : formatPrice(paise / 100));

type Figures = Omit<ShopLedger, 'sellerId' | 'shopName'>;

interface Line {
  id: string;
  sign: '' | '−' | '+' | '=';
  label: string;
  hint: string;
  amount: number;
  total?: boolean;
}

/**
 * A shop's money as two sums that add up on the screen (docs/product-rules.md "Issue #48"): paid online − refunds −
 * commission = owed; and owed = awaiting delivery or the return window + paid out + balance due now. Every line
 * has a one-line meaning. `who` words it for the jeweller ("you") or for the admin ("the shop"); the figures are
 * the server's, in integer paise, so the sums are exact.
 */
export function LedgerBreakdown({
  ledger,
  commissionPercent,
  returnWindowDays,
  who,
  testIdPrefix = 'ledger',
}: {
  ledger: Figures;
  commissionPercent: number;
  returnWindowDays: number;
  who: 'seller' | 'admin';
  testIdPrefix?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const k = (key: string, values?: Record<string, unknown>) => t(`sellerMoney.${who}.${key}`, values);
  const days = { count: returnWindowDays, days: returnWindowDays };
  const owed = k('owed');
  const made: Line[] = [
    { id: 'paid', sign: '', label: k('paid'), hint: k('paidHint'), amount: ledger.paidPaise },
    { id: 'refunds', sign: '−', label: k('refunds'), hint: k('refundsHint'), amount: ledger.refundsPaise },
    {
      id: 'commission',
      sign: '−',
      label: k('commission', { percent: commissionPercent }),
      hint: k('commissionHint', { percent: commissionPercent }),
      amount: ledger.commissionPaise,
    },
    { id: 'owed', sign: '=', label: owed, hint: k('owedHint'), amount: ledger.owedPaise, total: true },
  ];
  const where: Line[] = [
    {
      id: 'pending',
      sign: '',
      label: k('pending'),
      // A shop with no return window pays out on delivery (the hint names no days).
      hint: returnWindowDays > 0 ? k('pendingHint', days) : k('pendingHintNone'),
      amount: ledger.pendingPaise,
    },
    { id: 'paid-out', sign: '+', label: k('paidOut'), hint: k('paidOutHint'), amount: ledger.paidOutPaise },
    {
      id: 'balance',
      sign: '+',
      label: k('balance'),
      hint:
        ledger.balancePaise < 0
          ? k('balanceNegativeHint')
          : returnWindowDays > 0
            ? k('balanceHint', days)
            : k('balanceHintNone'),
      amount: ledger.balancePaise,
    },
    { id: 'owed-again', sign: '=', label: owed, hint: '', amount: ledger.owedPaise, total: true },
  ];
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
      <Sum
        headingId={`${id}-made`}
        heading={k('madeTitle')}
        lines={made}
        prefix={testIdPrefix}
        signWords={t}
      />
      <Sum
        headingId={`${id}-where`}
        heading={k('whereTitle')}
        lines={where}
        prefix={testIdPrefix}
        signWords={t}
      />
    </div>
  );
}

function Sum({
  headingId,
  heading,
  lines,
  prefix,
  signWords,
}: {
  headingId: string;
  heading: string;
  lines: Line[];
  prefix: string;
  signWords: (key: string) => string;
}) {
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-md border border-stone-200 p-3">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-ink">
        {heading}
      </h3>
      <dl className="space-y-2 text-sm">
        {lines.map((line) => (
          <div
            key={line.id}
            className={`grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-3 ${
              line.total ? 'border-t border-stone-300 pt-2' : ''
            }`}
            data-testid={`${prefix}-line-${line.id}`}
          >
            <dt
              className={
                line.total ? 'font-semibold break-words text-ink' : 'font-medium break-words text-ink'
              }
            >
              {line.sign && (
                <>
                  <span aria-hidden="true" className="inline-block w-4 text-muted">
                    {line.sign}
                  </span>
                  <span className="sr-only">{signWords(`sellerMoney.sign.${signName(line.sign)}`)} </span>
                </>
              )}
              {line.label}
            </dt>
            <dd
              className={`text-right tabular-nums text-ink ${
                line.id === 'balance' ? 'text-lg font-bold' : line.total ? 'font-bold' : 'font-semibold'
              }`}
              data-testid={line.id === 'owed-again' ? undefined : `${prefix}-${line.id}`}
            >
              {inr(line.amount)}
            </dd>
            {line.hint && <dd className="col-span-2 text-xs text-muted">{line.hint}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}

const signName = (sign: Exclude<Line['sign'], ''>) =>
  sign === '−' ? 'minus' : sign === '+' ? 'plus' : 'equals';
