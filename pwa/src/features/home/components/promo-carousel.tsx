import { ArrowRight, Coins, Pause, Play, Repeat } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { cn } from '../../../lib/cn';
import { useCarouselTimer } from './use-carousel-timer';

/** docs/product-rules.md §9: the promotional carousel turns every 5 s. */
export const PROMO_AUTOPLAY_MS = 5_000;

const SLIDES = [
  { id: 'goldExchange', to: '/marketplace?material=gold', Icon: Repeat, tint: 'from-gold-600 to-brand-800' },
  { id: 'cashForGold', to: '/sellers', Icon: Coins, tint: 'from-brand-800 to-stone-800' },
] as const;

/** Gold exchange and cash for gold offers (docs/product-rules.md §2), one slide at a time. */
export function PromoCarousel() {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const timer = useCarouselTimer({
    advance: () => setIndex((i) => (i + 1) % SLIDES.length),
    intervalMs: PROMO_AUTOPLAY_MS,
  });
  return (
    <section
      aria-roledescription={t('landing.carousel.roledescription')}
      aria-label={t('landing.promo.label')}
      className="mx-auto w-full max-w-7xl px-3 py-12 sm:px-4"
      {...timer.containerProps}
    >
      <div className="relative overflow-hidden rounded-2xl">
        <div aria-live={timer.playing ? 'off' : 'polite'}>
          {SLIDES.map((s, i) => (
            <div
              key={s.id}
              role="group"
              aria-roledescription={t('landing.carousel.slide')}
              aria-label={t('landing.carousel.slideOf', { n: i + 1, total: SLIDES.length })}
              hidden={i !== index}
              className={cn('bg-gradient-to-r p-6 text-white sm:p-10', s.tint)}
            >
              <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
                <s.Icon aria-hidden="true" className="h-12 w-12 shrink-0 text-gold-100" />
                <div className="flex-1">
                  <h2 className="text-2xl font-bold sm:text-3xl">{t(`landing.promo.${s.id}.title`)}</h2>
                  <p className="mt-2 max-w-2xl text-white/90">{t(`landing.promo.${s.id}.text`)}</p>
                </div>
                <Link
                  to={s.to}
                  className="inline-flex h-11 items-center gap-2 self-start rounded-md bg-white px-5 font-semibold text-brand-800 hover:bg-gold-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white sm:self-center"
                >
                  {t(`landing.promo.${s.id}.cta`)}
                  <ArrowRight aria-hidden="true" className="h-4 w-4" />
                </Link>
              </div>
            </div>
          ))}
        </div>
      </div>
      <div className="mt-3 flex items-center justify-center gap-2">
        {timer.canPlay && (
          <button
            type="button"
            onClick={timer.toggle}
            aria-label={timer.stopped ? t('landing.carousel.play') : t('landing.carousel.pause')}
            className="inline-flex h-8 w-8 items-center justify-center rounded-full text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            {timer.stopped ? (
              <Play aria-hidden="true" className="h-4 w-4" />
            ) : (
              <Pause aria-hidden="true" className="h-4 w-4" />
            )}
          </button>
        )}
        {SLIDES.map((s, i) => (
          <button
            key={s.id}
            type="button"
            onClick={() => setIndex(i)}
            aria-label={t('landing.carousel.goTo', { n: i + 1 })}
            aria-current={i === index ? 'true' : undefined}
            className="inline-flex h-8 w-8 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-brand-600"
          >
            <span
              aria-hidden="true"
              className={cn(
                'block h-2.5 rounded-full',
                i === index ? 'w-6 bg-brand-700' : 'w-2.5 bg-stone-400',
              )}
            />
          </button>
        ))}
      </div>
    </section>
  );
}
