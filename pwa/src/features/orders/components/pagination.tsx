import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { cn } from '../../../lib/cn';
import { pageItems } from '../invoice';

const item =
  'inline-flex h-9 min-w-9 items-center justify-center rounded-md px-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600';

/** Page links (one sibling each side, spec §9); `hrefFor` keeps the other URL parameters. */
export function Pagination({
  page,
  totalPages,
  hrefFor,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  return (
    <nav aria-label={t('orders.pagination')} className="mt-8 flex justify-center print:hidden">
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} className={cn(item, 'gap-1 text-ink hover:bg-stone-100')}>
              <ChevronLeft aria-hidden="true" className="h-4 w-4" />
              <span className="hidden sm:inline">{t('orders.previous')}</span>
              <span className="sr-only sm:hidden">{t('orders.previous')}</span>
            </Link>
          ) : null}
        </li>
        {pageItems(page, totalPages).map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                to={hrefFor(p)}
                aria-current={p === page ? 'page' : undefined}
                aria-label={t('orders.pageN', { n: p })}
                className={cn(item, p === page ? 'bg-brand-700 text-white' : 'text-ink hover:bg-stone-100')}
              >
                {p}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < totalPages ? (
            <Link to={hrefFor(page + 1)} className={cn(item, 'gap-1 text-ink hover:bg-stone-100')}>
              <span className="hidden sm:inline">{t('orders.next')}</span>
              <span className="sr-only sm:hidden">{t('orders.next')}</span>
              <ChevronRight aria-hidden="true" className="h-4 w-4" />
            </Link>
          ) : null}
        </li>
      </ul>
    </nav>
  );
}
