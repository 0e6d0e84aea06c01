import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Banknote, CreditCard, Landmark, Smartphone, Trash2 } from 'lucide-react';
import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router-dom';
import { toast } from 'sonner';
import type { User } from '../../../../../api/contract/accounts';
import type { Cart, CartItem } from '../../../../../api/contract/cart';
import { CheckoutSchema, type CheckoutData } from '../../../../../api/contract/checkout';
import { sumFigures } from '../../../../../api/contract/figures';
import { LineFigures, PriceFigureRows } from '../../../components/price-figures';
import { isOnlinePayment, type PaymentMethod } from '../../../../../api/contract/constants';
import { formatIndianMobile } from '../../../../../api/contract/indian-mobile';
import { toPaise } from '../../../../../api/contract/money';
import { LARGE_ORDER_PAISE } from '../../../../../api/contract/payments';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { api } from '../../../lib/api-client';
import { payOnline } from '../../../lib/pay-online';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Field, InputField, TextareaField } from '../../../components/ui/field';
import { SHIPPING_STATE_CODES } from '../../../../../api/contract/india-states';
import { ProductThumb } from '../../../components/ui/product-thumb';
import { PageSpinner } from '../../../components/ui/spinner';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { cartKey, cartListQuery } from '../../../lib/cart-query';
import { cn } from '../../../lib/cn';
import { formatPrice } from '../../../lib/format';
import { translateMessage } from '../../../lib/i18n';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { sessionQuery } from '../../../lib/session';
import { apiFieldErrors, zodFieldErrors, type FieldErrors } from '../../../lib/form-errors';
import { newIdempotencyKey, useCheckoutMutation, useRemoveUnavailableMutation } from '../api';

type TextField = 'customerName' | 'customerPhone' | 'shippingAddress' | 'city' | 'state' | 'pinCode';
type Values = Record<TextField, string> & {
  paymentMethod: PaymentMethod | null;
  buyerPan: string;
  buyerGstin: string;
};
type ErrorField = TextField | 'paymentMethod' | 'buyerPan' | 'buyerGstin';

const PAYMENT_ICONS: Record<PaymentMethod, ReactNode> = {
  upi: <Smartphone aria-hidden="true" className="h-5 w-5" />,
  card: <CreditCard aria-hidden="true" className="h-5 w-5" />,
  netbanking: <Landmark aria-hidden="true" className="h-5 w-5" />,
  cash_on_delivery: <Banknote aria-hidden="true" className="h-5 w-5" />,
};

/** The payment methods that work for this cart (docs/product-rules.md "Payments"): UPI first. */
const paymentOptionsQuery = (cartSignature: string) => ({
  queryKey: ['payments', 'options', cartSignature],
  queryFn: () => api.call(API_ROUTES.paymentOptions, undefined),
  staleTime: 0,
});

/**
 * /checkout (docs/product-rules.md §2): visitors go to the customer login and come back, other roles go home, an empty cart
 * goes to the marketplace. The form and the order summary (one order per shop) share the page.
 */
export default function CheckoutPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('checkout.title'));
  const session = useQuery(sessionQuery());
  if (session.isPending) return <PageSpinner label={t('common.loading')} />;
  const user = session.data;
  if (!user) return <Navigate to="/customer/login?redirect=%2Fcheckout" replace />;
  if (user.role !== 'customer') return <Navigate to="/" replace />;
  return <CustomerCheckout user={user} />;
}

function CustomerCheckout({ user }: { user: User }) {
  const { t } = useTranslation();
  // The cart area's query (one cache entry with the header badge and the panel).
  const cart = useQuery(cartListQuery());
  const notices = useQuery(verifiedMobileQuery());
  // After an order is placed the refreshed cart is empty: that must not send the customer to the marketplace.
  const [placed, setPlaced] = useState(false);

  if (cart.isPending) return <PageSpinner label={t('common.loading')} />;
  if (cart.isError) {
    return (
      <div role="alert" className="mx-auto max-w-md px-4 py-12 text-center">
        <h1 className="text-xl font-semibold text-ink">{t('checkout.cartLoadFailed')}</h1>
        <p className="mt-2 text-muted">{translateMessage(errorMessage(cart.error))}</p>
        <Button variant="outline" className="mt-4" onClick={() => void cart.refetch()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  if (cart.data.items.length === 0 && !placed) return <Navigate to="/marketplace" replace />;
  // The account's verified mobile pre-fills the phone (issue #49); a failure to read it only leaves it out.
  if (notices.isPending) return <PageSpinner label={t('common.loading')} />;

  return (
    <div className="mx-auto max-w-6xl px-3 py-6 sm:px-4 md:py-10">
      <h1 className="mb-6 text-2xl font-bold text-ink md:text-3xl">{t('checkout.title')}</h1>
      <CheckoutForm
        user={user}
        verifiedMobile={notices.data?.mobile ?? null}
        cart={cart.data}
        onPlaced={() => setPlaced(true)}
      />
    </div>
  );
}

/** What identifies one checkout attempt: the cart's lines and the body sent. A change means a new key. */
function attemptSignature(cart: Cart, input: CheckoutData): string {
  const lines = cart.items.map((i) => `${i.cartItemId}:${i.productId}:${i.quantity}`).join(',');
  return `${lines}|${JSON.stringify(input)}`;
}

/** The signed-in account's verified mobile (the notice settings' query: one cache entry with the profile). */
const verifiedMobileQuery = () => ({
  queryKey: ['notices', 'settings'] as const,
  queryFn: () => api.call(API_ROUTES.noticeSettings, undefined),
  retry: false,
});

/**
 * True when some shop's order in this cart reaches ₹2,00,000 (docs/product-rules.md §14): the PAN is asked for
 * on the form from the start, before Place Order (the server still refuses an order without it).
 */
export function cartNeedsPan(cart: Cart): boolean {
  const perShop = new Map<number, number>();
  for (const item of cart.items) {
    if (!item.available) continue;
    perShop.set(item.sellerId, (perShop.get(item.sellerId) ?? 0) + toPaise(item.lineTotal));
  }
  return [...perShop.values()].some((paise) => paise >= LARGE_ORDER_PAISE);
}

function CheckoutForm({
  user,
  verifiedMobile,
  cart,
  onPlaced,
}: {
  user: User;
  verifiedMobile: string | null;
  cart: Cart;
  onPlaced: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const checkout = useCheckoutMutation();
  const formRef = useRef<HTMLFormElement>(null);
  const attempt = useRef<{ key: string; signature: string } | null>(null);
  const [values, setValues] = useState<Values>(() => ({
    customerName: user.displayName ?? '',
    customerPhone: verifiedMobile ? formatIndianMobile(verifiedMobile) : (user.phone ?? ''),
    shippingAddress: '',
    city: '',
    state: '',
    pinCode: '',
    paymentMethod: null,
    buyerPan: '',
    buyerGstin: '',
  }));
  const [errors, setErrors] = useState<FieldErrors<ErrorField>>({});
  const [paying, setPaying] = useState(false);
  const cartSignature = cart.items.map((i) => `${i.productId}:${i.quantity}`).join(',');
  const options = useQuery(paymentOptionsQuery(cartSignature));
  const methods = options.data?.methods ?? [];
  // The chosen method while it still works for this cart, else the default (UPI).
  const method =
    values.paymentMethod && methods.includes(values.paymentMethod)
      ? values.paymentMethod
      : (options.data?.defaultMethod ?? null);
  const unavailable = cart.items.filter((i) => !i.available);
  // Asked for before Place Order: from the cart itself, from the server's options, or after its refusal.
  const panRequired = cartNeedsPan(cart) || !!options.data?.panRequired || !!errors.buyerPan;

  const setValue = (field: TextField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  function focusFirstError() {
    requestAnimationFrame(() => {
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (checkout.isPending || unavailable.length > 0) return;
    const parsed = CheckoutSchema.safeParse({
      ...values,
      paymentMethod: method ?? undefined,
      buyerPan: panRequired ? values.buyerPan : '',
    });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      focusFirstError();
      return;
    }
    const input = parsed.data;
    // The same attempt (same cart, same details) keeps its key, so a retry after a lost answer is replayed
    // by the server instead of placing a second order; anything different is a new attempt.
    const signature = attemptSignature(cart, input);
    if (!attempt.current || attempt.current.signature !== signature) {
      attempt.current = { key: newIdempotencyKey(), signature };
    }
    checkout.mutate(
      { input, idempotencyKey: attempt.current.key },
      {
        onSuccess: async (placed) => {
          attempt.current = null;
          onPlaced();
          void queryClient.invalidateQueries({ queryKey: cartKey });
          const first = placed.orders[0];
          if (!isOnlinePayment(input.paymentMethod) || !first) {
            // Placed and nothing to pay now (cash on delivery). An order paid online is not called placed
            // until it is paid: its outcome is said below.
            toast.success(t('messages.checkout.success'));
            void queryClient.invalidateQueries({ queryKey: ['orders'] });
            navigate('/orders');
            return;
          }
          // Paid online: Checkout opens now; whatever happens, the order page says where the payment stands.
          let outcome: Awaited<ReturnType<typeof payOnline>> | undefined;
          if (placed.payment) {
            setPaying(true);
            outcome = await payOnline(placed.payment, first.seller.shopName ?? 'Nagai').catch(
              () => undefined,
            );
            setPaying(false);
          }
          if (outcome?.kind === 'paid') toast.success(t('orders.payment.paid'));
          else toast.error(t('checkout.payFailed'));
          void queryClient.invalidateQueries({ queryKey: ['orders'] });
          navigate(placed.orders.length === 1 ? `/orders/${first.id}` : '/orders');
        },
        onError: (err) => {
          const fields = apiFieldErrors<ErrorField>(err);
          if (Object.keys(fields).length > 0) {
            setErrors(fields);
            focusFirstError();
          }
          const raw = err instanceof ApiError || err instanceof Error ? err.message : '';
          const message = raw ? translateMessage(raw) : t('messages.checkout.unknownError');
          toast.error(t('messages.checkout.failed', { message }));
          // A stock or availability refusal means the cart changed: show it as it is now.
          void queryClient.invalidateQueries({ queryKey: cartKey });
        },
      },
    );
  }

  const text = (field: TextField, opts: { autoComplete: string; inputMode?: 'tel' | 'numeric' }) => (
    <InputField
      label={t(`checkout.fields.${field}`)}
      error={errors[field]}
      name={field}
      value={values[field]}
      onChange={(e) => setValue(field, e.target.value)}
      autoComplete={opts.autoComplete}
      inputMode={opts.inputMode}
      required
      aria-required="true"
    />
  );

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]"
    >
      <div className="space-y-6">
        <Card>
          <CardHeader>
            <CardTitle>{t('checkout.shippingTitle')}</CardTitle>
          </CardHeader>
          <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {text('customerName', { autoComplete: 'name' })}
            {text('customerPhone', { autoComplete: 'tel', inputMode: 'tel' })}
            <div className="sm:col-span-2">
              <TextareaField
                label={t('checkout.fields.shippingAddress')}
                error={errors.shippingAddress}
                name="shippingAddress"
                value={values.shippingAddress}
                onChange={(e) => setValue('shippingAddress', e.target.value)}
                autoComplete="street-address"
                required
                aria-required="true"
              />
            </div>
            {text('city', { autoComplete: 'address-level2' })}
            {/* The state or union territory by its GST state code: place of supply and CGST + SGST or IGST
                follow from it, and the server checks the PIN code belongs to it. */}
            <Field label={t('checkout.fields.state')} error={errors.state}>
              {(control) => (
                <select
                  {...control}
                  name="state"
                  value={values.state}
                  onChange={(e) => setValue('state', e.target.value)}
                  autoComplete="address-level1"
                  required
                  aria-required="true"
                  className="block h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-base text-ink"
                >
                  <option value="">{t('checkout.chooseState')}</option>
                  {SHIPPING_STATE_CODES.map((code) => (
                    <option key={code} value={code}>
                      {t(`checkout.states.${code}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            {text('pinCode', { autoComplete: 'postal-code', inputMode: 'numeric' })}
            {/* The buyer's GSTIN, for a business purchase: printed on the tax invoice (optional). */}
            <InputField
              label={t('checkout.gstinLabel')}
              hint={t('checkout.gstinHint')}
              error={errors.buyerGstin}
              name="buyerGstin"
              value={values.buyerGstin}
              onChange={(e) => {
                setValues((v) => ({ ...v, buyerGstin: e.target.value.toUpperCase() }));
                setErrors((er) => ({ ...er, buyerGstin: undefined }));
              }}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={15}
            />
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>{t('checkout.paymentTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <fieldset>
              <legend className="sr-only">{t('checkout.paymentTitle')}</legend>
              {options.data?.testMode && (
                <p className="mb-3 inline-block rounded bg-sky-100 px-2 py-1 text-sm font-semibold text-sky-900">
                  {t('checkout.testPayments')}
                </p>
              )}
              <div className="grid gap-3">
                {methods.map((m) => (
                  <label
                    key={m}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-lg border p-3 text-ink',
                      'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
                      method === m ? 'border-brand-700 bg-brand-50' : 'border-stone-300 hover:bg-stone-50',
                    )}
                  >
                    <input
                      type="radio"
                      name="paymentMethod"
                      value={m}
                      checked={method === m}
                      onChange={() => setValues((v) => ({ ...v, paymentMethod: m }))}
                      className="h-4 w-4 accent-brand-700"
                    />
                    {PAYMENT_ICONS[m]}
                    <span className="font-medium">{t(`checkout.payment.${m}`)}</span>
                  </label>
                ))}
              </div>
            </fieldset>
            {options.data?.cashUnavailable && (
              <p className="mt-3 text-sm text-muted" data-testid="cash-unavailable">
                {translateMessage(options.data.cashUnavailable)}
              </p>
            )}
            {errors.paymentMethod && (
              <p role="alert" className="mt-3 text-sm font-medium text-red-800">
                {errors.paymentMethod}
              </p>
            )}
            {method && (
              <p
                className="mt-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950"
                aria-live="polite"
                data-testid="payment-note"
              >
                {method === 'cash_on_delivery'
                  ? t('checkout.paymentNote.cash_on_delivery')
                  : t('checkout.paymentNote.online')}
              </p>
            )}
            {panRequired && (
              <div className="mt-4">
                <InputField
                  label={t('checkout.panLabel')}
                  hint={t('checkout.panHint')}
                  error={errors.buyerPan}
                  name="buyerPan"
                  value={values.buyerPan}
                  onChange={(e) => {
                    setValues((v) => ({ ...v, buyerPan: e.target.value.toUpperCase() }));
                    setErrors((er) => ({ ...er, buyerPan: undefined }));
                  }}
                  autoComplete="off"
                  autoCapitalize="characters"
                  maxLength={10}
                  required
                  aria-required="true"
                />
              </div>
            )}
          </CardContent>
        </Card>
      </div>

      <OrderSummary
        cart={cart}
        submitting={checkout.isPending || paying}
        blocked={unavailable.length > 0 || !method}
      />
    </form>
  );
}

interface ShopGroup {
  key: string;
  shopName: string;
  items: CartItem[];
}

function groupByShop(items: CartItem[], unknownShop: string): ShopGroup[] {
  const groups = new Map<string, ShopGroup>();
  for (const item of items) {
    const key = String(item.sellerId);
    const group = groups.get(key) ?? { key, shopName: item.shopName ?? unknownShop, items: [] };
    group.items.push(item);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function OrderSummary({ cart, submitting, blocked }: { cart: Cart; submitting: boolean; blocked: boolean }) {
  const { t } = useTranslation();
  const groups = useMemo(() => groupByShop(cart.items, t('checkout.unknownShop')), [cart.items, t]);
  const shopCount = groups.filter((g) => g.items.some((i) => i.available)).length;
  return (
    <Card className="h-fit lg:sticky lg:top-20">
      <CardHeader>
        <CardTitle>{t('checkout.summaryTitle')}</CardTitle>
        {shopCount > 1 && (
          <p className="text-sm text-muted">{t('checkout.ordersPerShop', { count: shopCount })}</p>
        )}
      </CardHeader>
      <CardContent className="space-y-5">
        {groups.map((group) => (
          <section key={group.key} aria-label={group.shopName} data-testid="summary-shop">
            <h3 className="mb-2 font-semibold text-brand-800">{group.shopName}</h3>
            <ul className="space-y-3">
              {group.items.map((item) => (
                <SummaryLine key={item.cartItemId} item={item} />
              ))}
            </ul>
          </section>
        ))}
        <dl className="space-y-1.5 border-t border-stone-200 pt-4 text-sm">
          {/* What the total is made of, GST included (issue #49). */}
          <PriceFigureRows
            figures={sumFigures(cart.items.filter((i) => i.available))}
            testIdPrefix="checkout-figures"
          />
          <div className="flex justify-between">
            <dt className="text-muted">{t('cart.shipping')}</dt>
            <dd className="font-medium text-green-800">{t('common.shippingFree')}</dd>
          </div>
          <div className="flex justify-between border-t border-stone-200 pt-2 text-base">
            <dt className="font-semibold text-ink">{t('cart.total')}</dt>
            <dd className="font-semibold text-ink" data-testid="checkout-total">
              {formatPrice(cart.totalAmount)}
            </dd>
          </div>
        </dl>
        {blocked && (
          <p role="alert" className="text-sm font-medium text-red-800">
            {t('checkout.removeUnavailable')}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" loading={submitting} disabled={blocked}>
          {submitting ? t('checkout.placing') : t('checkout.placeOrder')}
        </Button>
      </CardContent>
    </Card>
  );
}

function SummaryLine({ item }: { item: CartItem }) {
  const { t } = useTranslation();
  const remove = useRemoveUnavailableMutation();
  return (
    <li className="flex gap-3">
      <ProductThumb src={item.imageUrl} size="md" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium break-words text-ink">{item.productName}</p>
        {item.available ? (
          <p className="text-muted">
            {t('checkout.lineQuantity', {
              quantity: item.quantity,
              price: formatPrice(item.price, t('common.priceNotAvailable')),
            })}
          </p>
        ) : null}
        {item.available && <LineFigures figures={item.figures} testIdPrefix="checkout-line-figures" />}
        {item.available ? null : (
          <div className="flex flex-wrap items-center gap-2">
            <p className="font-medium text-red-800">{t('cart.unavailable')}</p>
            <Button
              variant="ghost"
              size="sm"
              loading={remove.isPending}
              onClick={() => remove.mutate(item.cartItemId)}
            >
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t('cart.remove', { name: item.productName })}
            </Button>
          </div>
        )}
      </div>
      {item.available && (
        <p className="shrink-0 text-sm font-semibold text-ink">{formatPrice(item.lineTotal)}</p>
      )}
    </li>
  );
}
