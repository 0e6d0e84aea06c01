import { ChevronLeft, ChevronRight, Gem, Pause, Play } from 'lucide-react';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PRODUCT_CATEGORIES } from '../../../../../api/contract/constants';
import { useCarouselTimer } from './use-carousel-timer';

/** docs/product-rules.md §9: each step moves 80% of the visible width; autoplay every 10 s; 30 s rest after interaction. */
export const CATEGORY_STEP = 0.8;
export const CATEGORY_AUTOPLAY_MS = 10_000;
export const CATEGORY_PAUSE_MS = 30_000;

const TINTS = [
  'from-brand-700 to-brand-600',
  'from-gold-600 to-gold-400',
  'from-brand-800 to-gold-600',
  'from-stone-700 to-brand-700',
];

/** Where a scroller goes next: one step on, or back to the start (or end) when it would pass the edge. */
export function nextScrollLeft(current: number, viewport: number, total: number, direction: 1 | -1): number {
  const max = Math.max(0, total - viewport);
  const step = viewport * CATEGORY_STEP;
  if (direction === 1) return current >= max - 1 ? 0 : Math.min(max, current + step);
  return current <= 1 ? max : Math.max(0, current - step);
}

/** The landing's category carousel: tiles linking to the marketplace filtered by category. */
export function CategoryCarousel() {
  const { t } = useTranslation();
  const scroller = useRef<HTMLUListElement>(null);
  const move = useCallback((direction: 1 | -1) => {
    const el = scroller.current;
    if (!el) return;
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    el.scrollTo({
      left: nextScrollLeft(el.scrollLeft, el.clientWidth, el.scrollWidth, direction),
      behavior: reduce ? 'auto' : 'smooth',
    });
  }, []);
  const timer = useCarouselTimer({
    advance: () => move(1),
    intervalMs: CATEGORY_AUTOPLAY_MS,
    pauseAfterInteractionMs: CATEGORY_PAUSE_MS,
  });

  const button =
    'inline-flex h-10 w-10 items-center justify-center rounded-full border border-stone-300 bg-white text-ink shadow-sm hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-brand-600';
  return (
    <section
      aria-labelledby="categories-heading"
      aria-roledescription={t('landing.carousel.roledescription')}
      className="mx-auto w-full max-w-7xl px-3 py-12 sm:px-4"
    >
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="categories-heading" className="text-2xl font-bold text-ink md:text-3xl">
            {t('landing.categories.title')}
          </h2>
          <p className="mt-1 text-muted">{t('landing.categories.subtitle')}</p>
        </div>
        <div className="flex gap-2">
          {timer.canPlay && (
            <button
              type="button"
              className={button}
              onClick={timer.toggle}
              aria-label={timer.stopped ? t('landing.carousel.play') : t('landing.carousel.pause')}
            >
              {timer.stopped ? (
                <Play aria-hidden="true" className="h-4 w-4" />
              ) : (
                <Pause aria-hidden="true" className="h-4 w-4" />
              )}
            </button>
          )}
          <button
            type="button"
            className={button}
            aria-label={t('landing.carousel.previous')}
            aria-controls="category-track"
            onClick={() => {
              timer.interacted();
              move(-1);
            }}
          >
            <ChevronLeft aria-hidden="true" className="h-5 w-5" />
          </button>
          <button
            type="button"
            className={button}
            aria-label={t('landing.carousel.next')}
            aria-controls="category-track"
            onClick={() => {
              timer.interacted();
              move(1);
            }}
          >
            <ChevronRight aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
      </div>
      <div {...timer.containerProps} onPointerDown={timer.interacted} onWheel={timer.interacted}>
        <ul
          id="category-track"
          ref={scroller}
          aria-live={timer.playing ? 'off' : 'polite'}
          className="flex snap-x snap-mandatory gap-4 overflow-x-auto scroll-smooth pb-3 motion-reduce:scroll-auto"
        >
          {PRODUCT_CATEGORIES.map((c, i) => (
            <li key={c} className="w-40 shrink-0 snap-start sm:w-48">
              <Link
                to={`/marketplace?category=${c}`}
                className={`flex aspect-[4/5] flex-col justify-end rounded-2xl bg-gradient-to-br p-4 text-white shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 ${TINTS[i % TINTS.length]}`}
              >
                <Gem aria-hidden="true" className="mb-auto h-8 w-8 opacity-80" />
                <span className="text-lg font-semibold first-letter:uppercase">
                  {t(`catalog.categories.${c}`)}
                </span>
                <span className="text-sm text-white/90">{t('landing.categories.shop')}</span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
