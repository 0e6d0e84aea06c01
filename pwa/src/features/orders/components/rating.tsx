import { Star } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { REVIEW_MAX, RateProductSchema, type OrderItemRating } from '../../../../../api/contract/orders';
import { Button } from '../../../components/ui/button';
import { Textarea } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { translateMessage } from '../../../lib/i18n';
import { useRateProductMutation } from '../api';

/** Stars drawn for a given rating; the text beside them carries the meaning. */
function Stars({ value }: { value: number }) {
  return (
    <span aria-hidden="true" className="inline-flex">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star
          key={n}
          className={cn('h-4 w-4', n <= value ? 'fill-gold-400 text-gold-600' : 'text-stone-400')}
        />
      ))}
    </span>
  );
}

/** A rating already given: stars, 'Your rating: N out of 5' and the review. */
export function GivenRating({ rating }: { rating: OrderItemRating }) {
  const { t } = useTranslation();
  return (
    <div className="text-sm" data-testid="given-rating">
      <p className="flex items-center gap-2 font-medium text-ink">
        <Stars value={rating.stars} />
        {t('orders.rating.given', { n: rating.stars })}
      </p>
      {rating.review && <p className="mt-1 break-words text-muted">“{rating.review}”</p>}
    </div>
  );
}

/** Rating one product of a delivered order: 1–5 stars (a radio group) and an optional short review. */
export function RatingForm({
  orderId,
  productId,
  productName,
}: {
  orderId: number;
  productId: number;
  productName: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const rate = useRateProductMutation();
  const [stars, setStars] = useState(0);
  const [hover, setHover] = useState(0);
  const [review, setReview] = useState('');
  const [error, setError] = useState<string>();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (rate.isPending) return;
    const parsed = RateProductSchema.safeParse({ orderId, productId, stars, review });
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setError(undefined);
    rate.mutate(parsed.data, {
      onSuccess: () => toast.success(t('orders.rating.thanks')),
      onError: (err) => {
        const message = translateMessage(errorMessage(err));
        setError(message);
        toast.error(t('orders.rating.failed', { message }));
      },
    });
  }

  const shown = hover || stars;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2" data-testid="rating-form">
      <fieldset>
        <legend className="text-sm font-medium text-ink">
          {t('orders.rating.legend', { name: productName })}
        </legend>
        <div className="mt-1 flex gap-1" onMouseLeave={() => setHover(0)}>
          {[1, 2, 3, 4, 5].map((n) => (
            <label
              key={n}
              className="cursor-pointer rounded-md p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
              onMouseEnter={() => setHover(n)}
            >
              <input
                type="radio"
                name={`${id}-stars`}
                value={n}
                checked={stars === n}
                onChange={() => {
                  setStars(n);
                  setError(undefined);
                }}
                className="sr-only"
              />
              <Star
                aria-hidden="true"
                className={cn('h-7 w-7', n <= shown ? 'fill-gold-400 text-gold-600' : 'text-stone-400')}
              />
              <span className="sr-only">{t('orders.rating.stars', { count: n })}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="space-y-1">
        <label htmlFor={`${id}-review`} className="text-sm font-medium text-ink">
          {t('orders.rating.review')} <span className="font-normal text-muted">({t('common.optional')})</span>
        </label>
        <Textarea
          id={`${id}-review`}
          value={review}
          maxLength={REVIEW_MAX}
          onChange={(e) => setReview(e.target.value)}
          aria-describedby={`${id}-count`}
          className="min-h-16"
        />
        <p id={`${id}-count`} className="text-xs text-muted">
          {t('orders.rating.count', { n: review.length, max: REVIEW_MAX })}
        </p>
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-800">
          {error}
        </p>
      )}
      <Button type="submit" size="sm" loading={rate.isPending}>
        {t('orders.rating.submit')}
      </Button>
    </form>
  );
}
