import { useQuery } from '@tanstack/react-query';
import {
  AlertTriangle,
  BadgeCheck,
  ChevronDown,
  Glasses,
  Mail,
  MapPin,
  MessagesSquare,
  Package,
  Phone,
  Search,
  ShieldCheck,
  Store,
  UserCog,
  Video,
} from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PRODUCT_CATEGORIES } from '../../../../../api/contract/constants';
import { HeaderSlot } from '../../../app/header-slots';
import { buttonClasses } from '../../../components/ui/button';
import { Skeleton } from '../../../components/ui/skeleton';
import { cn } from '../../../lib/cn';
import { formatNumber } from '../../../lib/format';
import { piecesClaim, showsFigure } from '../../../../../api/contract/landing-figures';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { SellerCard, SellerCardSkeleton, sellerQueries } from '../../catalog/public';
import { HydrateLater } from '../../../lib/hydrate-later';
import { CategoryCarousel } from './category-carousel';
import { PromoCarousel } from './promo-carousel';

/** The header's category menu on the landing: a disclosure listing every category. */
function CategoryMenu() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        ref.current?.querySelector('button')?.focus();
      }
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div ref={ref} className="relative hidden sm:block">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-9 items-center gap-1 rounded-md px-3 text-sm font-medium text-ink hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {t('landing.header.categories')}
        <ChevronDown
          aria-hidden="true"
          className={cn('h-4 w-4 transition-transform', open && 'rotate-180')}
        />
      </button>
      <nav
        id={id}
        hidden={!open}
        aria-label={t('landing.header.categories')}
        className="absolute right-0 z-50 mt-2 w-64 rounded-lg border border-stone-200 bg-white p-2 shadow-lg"
      >
        <ul className="grid grid-cols-2 gap-1">
          {PRODUCT_CATEGORIES.map((c) => (
            <li key={c}>
              <Link
                to={`/marketplace?category=${c}`}
                onClick={() => setOpen(false)}
                className="block rounded-md px-2 py-1.5 text-sm text-ink first-letter:uppercase hover:bg-brand-50 hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="block first-letter:uppercase">{t(`catalog.categories.${c}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

function Hero() {
  const { t } = useTranslation();
  const stats = useQuery(sellerQueries.stats());
  // A figure too small to impress is left out; the promise of pieces is the real count (§20.4).
  const items = (
    [
      ['happyCustomers', stats.data?.happyCustomers],
      ['verifiedJewelers', stats.data?.verifiedJewelers],
      ['jewelryPieces', stats.data?.jewelryPieces],
    ] as const
  ).filter(([key, value]) => !stats.data || showsFigure(key, value));
  const claim = piecesClaim(stats.data?.jewelryPieces);
  const subtitle =
    claim.kind === 'thousands'
      ? t('landing.hero.subtitleThousands')
      : claim.kind === 'count'
        ? t(claim.exact ? 'landing.hero.subtitleCount' : 'landing.hero.subtitleOver', {
            count: formatNumber(claim.count),
          })
        : t('landing.hero.subtitle');
  return (
    <section className="bg-gradient-to-br from-brand-50 via-surface to-gold-100">
      <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-10 px-3 py-12 sm:px-4 md:py-20 lg:grid-cols-[3fr_2fr] lg:items-center">
        <div>
          <p className="mb-3 inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-brand-800 shadow-sm">
            <Video aria-hidden="true" className="h-4 w-4" />
            {t('landing.hero.eyebrow')}
          </p>
          <h1 className="text-3xl leading-tight font-bold break-words text-ink sm:text-4xl md:text-5xl">
            {t('landing.hero.title')}
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-muted">{subtitle}</p>
          <div className="mt-6 flex flex-wrap gap-3">
            <Link to="/marketplace" className={buttonClasses('primary', 'lg')}>
              {t('header.nav.browseMarketplace')}
            </Link>
            <Link to="/sellers" className={buttonClasses('outline', 'lg')}>
              {t('landing.hero.findJeweller')}
            </Link>
          </div>
        </div>
        {/* On a phone (and in the desktop's narrow column) each figure is a row, its label beside it, so a long
            Tamil word (சரிபார்க்கப்பட்ட) fits whole; the cards side by side only where they are wide enough. Words
            are never broken inside (docs/product-rules.md §20.5). */}
        <dl
          className={cn(
            'grid grid-cols-1 gap-3 lg:grid-cols-1',
            items.length === 3 ? 'sm:grid-cols-3' : 'sm:grid-cols-2',
            !items.length && 'hidden',
          )}
          data-testid="hero-figures"
        >
          {items.map(([key, value]) => (
            <div
              key={key}
              className="flex items-center gap-3 rounded-xl bg-white px-4 py-3 shadow-sm sm:block sm:p-4 sm:text-center lg:flex lg:px-4 lg:py-3 lg:text-left"
            >
              <dd className="min-w-16 shrink-0 text-2xl font-bold text-brand-800 sm:text-3xl">
                <LiveFigure value={value} failed={stats.isError} />
              </dd>
              <dt className="text-sm text-muted wrap-normal break-normal hyphens-none sm:mt-1 lg:mt-0">
                {t(`landing.hero.stats.${key}`, { count: value ?? 0 })}
              </dt>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}

/** A live count: a placeholder while it loads, a dash if it could not be had, else the number. */
function LiveFigure({ value, failed }: { value: number | undefined; failed: boolean }) {
  if (value !== undefined) return <>{formatNumber(value)}</>;
  return failed ? <>—</> : <Skeleton className="mx-auto h-8 w-16" />;
}

function TopSellers() {
  const { t } = useTranslation();
  const top = useQuery(sellerQueries.top());
  return (
    <section aria-labelledby="top-sellers-heading" className="bg-white py-12">
      <div className="mx-auto w-full max-w-7xl px-3 sm:px-4">
        <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="top-sellers-heading" className="text-2xl font-bold text-ink md:text-3xl">
              {t('landing.topSellers.title')}
            </h2>
            <p className="mt-1 text-muted">{t('landing.topSellers.subtitle')}</p>
          </div>
          <Link to="/sellers" className={buttonClasses('outline')}>
            {t('landing.topSellers.viewAll')}
          </Link>
        </div>
        {top.isPending ? (
          <div role="status" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <span className="sr-only">{t('common.loading')}</span>
            {Array.from({ length: 3 }, (_, i) => (
              <SellerCardSkeleton key={i} />
            ))}
          </div>
        ) : top.isError ? (
          <p role="alert" className="flex items-center gap-2 rounded-lg bg-red-50 p-4 text-red-900">
            <AlertTriangle aria-hidden="true" className="h-5 w-5" />
            {t('catalog.directory.error')}
          </p>
        ) : top.data.length === 0 ? (
          <p className="rounded-lg bg-stone-50 p-6 text-center text-muted">{t('landing.topSellers.empty')}</p>
        ) : (
          <ul className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {top.data.map((s) => (
              <li key={s.sellerId}>
                <SellerCard seller={s} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** Where "Virtual try-on" leads: the marketplace's earrings, each with "Try it on" on its page. */
const TRY_ON_HREF = '/marketplace?category=earrings';

const FEATURES = [
  { id: 'video', Icon: Video },
  { id: 'tryOn', Icon: Glasses },
  { id: 'consultation', Icon: MessagesSquare },
  { id: 'verified', Icon: ShieldCheck },
] as const;

function Features() {
  const { t } = useTranslation();
  return (
    <section id="features" aria-labelledby="features-heading" className="scroll-mt-20 py-12">
      <div className="mx-auto w-full max-w-7xl px-3 sm:px-4">
        <h2 id="features-heading" className="text-center text-2xl font-bold text-ink md:text-3xl">
          {t('landing.features.title')}
        </h2>
        <p className="mx-auto mt-2 max-w-2xl text-center text-muted">{t('landing.features.subtitle')}</p>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map(({ id, Icon }) => (
            <li key={id} className="rounded-xl border border-stone-200 bg-white p-5 shadow-sm">
              <span className="inline-flex rounded-full bg-brand-50 p-3 text-brand-700">
                <Icon aria-hidden="true" className="h-6 w-6" />
              </span>
              <h3 className="mt-3 text-lg font-semibold text-ink">{t(`landing.features.${id}.title`)}</h3>
              <p className="mt-1 text-sm text-muted">{t(`landing.features.${id}.text`)}</p>
              {id === 'tryOn' && (
                // Try-on works for earrings, nose pins, necklaces and pendants (§16): earrings first.
                <Link
                  to={TRY_ON_HREF}
                  className="mt-2 inline-flex min-h-6 items-center text-sm font-semibold text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  {t('landing.features.tryOn.link')}
                </Link>
              )}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const STEPS = [
  { id: 'find', Icon: Search },
  { id: 'call', Icon: Video },
  { id: 'purchase', Icon: ShieldCheck },
] as const;

function HowItWorks() {
  const { t } = useTranslation();
  return (
    <section id="how-it-works" aria-labelledby="how-heading" className="scroll-mt-20 bg-gold-100/60 py-12">
      <div className="mx-auto w-full max-w-7xl px-3 sm:px-4">
        <h2 id="how-heading" className="text-center text-2xl font-bold text-ink md:text-3xl">
          {t('landing.how.title')}
        </h2>
        <ol className="mt-8 grid gap-6 md:grid-cols-3">
          {STEPS.map(({ id, Icon }, i) => (
            <li key={id} className="relative rounded-xl bg-white p-6 text-center shadow-sm">
              <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-700 text-white">
                <Icon aria-hidden="true" className="h-6 w-6" />
              </span>
              <p className="mt-3 text-sm font-semibold text-gold-600">
                {t('landing.how.step', { n: i + 1 })}
              </p>
              <h3 className="mt-1 text-lg font-semibold text-ink">{t(`landing.how.${id}.title`)}</h3>
              <p className="mt-1 text-sm text-muted">{t(`landing.how.${id}.text`)}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

const PITCH = [
  { id: 'video', Icon: Video },
  { id: 'products', Icon: Package },
  { id: 'store', Icon: Store },
  { id: 'profile', Icon: UserCog },
] as const;

function SellerPitch() {
  const { t } = useTranslation();
  const stats = useQuery(sellerQueries.stats());
  return (
    <section aria-labelledby="pitch-heading" className="bg-brand-800 py-14 text-white">
      <div className="mx-auto grid w-full max-w-7xl gap-10 px-3 sm:px-4 lg:grid-cols-2">
        <div>
          <h2 id="pitch-heading" className="text-2xl font-bold md:text-3xl">
            {t('landing.pitch.title')}
          </h2>
          <p className="mt-2 text-white/90">{t('landing.pitch.subtitle')}</p>
          <ul className="mt-6 grid gap-4 sm:grid-cols-2">
            {PITCH.map(({ id, Icon }) => (
              <li key={id} className="flex gap-3">
                <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-gold-400" />
                <div>
                  <h3 className="font-semibold">{t(`landing.pitch.features.${id}.title`)}</h3>
                  <p className="text-sm text-white/85">{t(`landing.pitch.features.${id}.text`)}</p>
                </div>
              </li>
            ))}
          </ul>
          <Link
            to="/seller/login"
            className="mt-8 inline-flex h-12 items-center rounded-md bg-gold-400 px-6 font-semibold text-ink hover:bg-gold-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
          >
            {t('landing.pitch.cta')}
          </Link>
        </div>
        <div className="flex flex-col gap-6">
          <figure className="rounded-2xl bg-white/10 p-6">
            <blockquote className="text-lg leading-relaxed">
              “{t('landing.pitch.testimonial.quote')}”
            </blockquote>
            <figcaption className="mt-4 text-sm text-white/90">
              <span className="font-semibold text-white">{t('landing.pitch.testimonial.name')}</span>
              {' — '}
              {t('landing.pitch.testimonial.shop')}
            </figcaption>
          </figure>
          {/* The pitch's figures are the live counts the hero shows (docs/product-rules.md §2), never a claim. */}
          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2" data-testid="pitch-figures">
            {(
              [
                ['jewelers', 'verifiedJewelers', stats.data?.verifiedJewelers],
                ['buyers', 'monthlyBuyers', stats.data?.monthlyBuyers],
              ] as const
            )
              .filter(([, key, value]) => !stats.data || showsFigure(key, value))
              .map(([k, , value]) => (
                <div
                  key={k}
                  className="flex items-center gap-4 rounded-xl bg-white/10 px-5 py-4 sm:block sm:p-5 sm:text-center"
                >
                  <dd className="min-w-16 shrink-0 text-3xl font-bold text-gold-400">
                    <LiveFigure value={value} failed={stats.isError} />
                  </dd>
                  <dt className="text-sm text-white/90 wrap-normal break-normal hyphens-none sm:mt-1">
                    {t(`landing.pitch.stats.${k}`, { count: value ?? 0 })}
                  </dt>
                </div>
              ))}
          </dl>
        </div>
      </div>
    </section>
  );
}

function Footer() {
  const { t } = useTranslation();
  const link =
    'text-sm text-stone-300 hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-white';
  const columns = [
    {
      id: 'platform',
      links: [
        { to: '/marketplace', label: 'marketplace' },
        { to: '/sellers', label: 'jewellers' },
        { to: '/#how-it-works', label: 'howItWorks' },
      ],
    },
    {
      id: 'company',
      links: [
        { to: '/#features', label: 'about' },
        { to: '/seller/login', label: 'sell' },
        { to: '/#top-sellers-heading', label: 'topJewellers' },
      ],
    },
    {
      id: 'support',
      links: [
        { to: '/customer/login', label: 'account' },
        { to: '/orders', label: 'orders' },
        { href: 'mailto:support@nagai.in', label: 'help' },
      ],
    },
  ] as const;
  return (
    <footer className="bg-stone-900 text-stone-200">
      <div className="mx-auto grid w-full max-w-7xl gap-8 px-3 py-12 sm:grid-cols-2 sm:px-4 lg:grid-cols-5">
        {columns.map((col) => (
          <nav key={col.id} aria-labelledby={`footer-${col.id}`}>
            <h2
              id={`footer-${col.id}`}
              className="mb-3 text-sm font-semibold tracking-wide text-white uppercase"
            >
              {t(`landing.footer.${col.id}.title`)}
            </h2>
            <ul className="space-y-2">
              {col.links.map((l) => (
                <li key={l.label}>
                  {'href' in l ? (
                    <a href={l.href} className={link}>
                      {t(`landing.footer.${col.id}.${l.label}`)}
                    </a>
                  ) : (
                    <Link to={l.to} className={link}>
                      {t(`landing.footer.${col.id}.${l.label}`)}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <div>
          <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">
            {t('landing.footer.legal.title')}
          </h2>
          {/* No legal pages exist yet: plain text, not links that lead nowhere. */}
          <ul className="space-y-2 text-sm text-stone-300">
            <li>{t('landing.footer.legal.terms')}</li>
            <li>{t('landing.footer.legal.privacy')}</li>
            <li>{t('landing.footer.legal.refunds')}</li>
          </ul>
        </div>
        <address className="not-italic">
          <h2 className="mb-3 text-sm font-semibold tracking-wide text-white uppercase">
            {t('landing.footer.contact.title')}
          </h2>
          <ul className="space-y-2 text-sm text-stone-300">
            <li className="flex gap-2">
              <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              {t('landing.footer.contact.address')}
            </li>
            <li className="flex gap-2">
              <Phone aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              <a href="tel:+914428000000" className={link}>
                +91 44 2800 0000
              </a>
            </li>
            <li className="flex gap-2">
              <Mail aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              <a href="mailto:support@nagai.in" className={link}>
                support@nagai.in
              </a>
            </li>
          </ul>
        </address>
      </div>
      <p className="border-t border-stone-700 px-3 py-4 text-center text-sm text-stone-300">
        <BadgeCheck aria-hidden="true" className="mr-1 inline h-4 w-4" />
        {t('landing.footer.copyright', { year: new Date().getFullYear() })}
      </p>
    </footer>
  );
}

/** The visitors' landing page (docs/product-rules.md §1–§2). */
export default function Landing() {
  const { t } = useTranslation();
  useDocumentTitle(t('landing.title'));
  return (
    <>
      <HeaderSlot name="actions">
        <CategoryMenu />
      </HeaderSlot>
      <HydrateLater>
        <Hero />
      </HydrateLater>
      <HydrateLater>
        <CategoryCarousel />
      </HydrateLater>
      {/* Seen, not only used: a closed shop's badge gives its next opening in the reader's time zone once live. */}
      <HydrateLater>
        <TopSellers />
      </HydrateLater>
      <HydrateLater>
        <Features />
      </HydrateLater>
      <HydrateLater>
        <HowItWorks />
      </HydrateLater>
      <HydrateLater>
        <SellerPitch />
      </HydrateLater>
      <HydrateLater>
        <PromoCarousel />
      </HydrateLater>
      <HydrateLater>
        <Footer />
      </HydrateLater>
    </>
  );
}
