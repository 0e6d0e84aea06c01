import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { cn } from '../../../lib/cn';
import { paginationItems } from '../utils/pagination';

const base =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600';

/** Page links (1 sibling each side, spec §9); real links, so pages can be opened in a new tab and shared. */
export function Pagination({
  page,
  totalPages,
  hrefFor,
  className,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
  className?: string;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  const items = paginationItems(page, totalPages, 1);
  return (
    <nav aria-label={t('catalog.pagination.label')} className={cn('flex justify-center', className)}>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {page > 1 ? (
            <Link to={hrefFor(page - 1)} className={cn(base, 'hover:bg-stone-100')}>
              <ChevronLeft aria-hidden="true" className="h-4 w-4" />
              <span className="max-sm:sr-only">{t('catalog.pagination.previous')}</span>
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(base, 'text-stone-500')}>
              <ChevronLeft aria-hidden="true" className="h-4 w-4" />
              <span className="max-sm:sr-only">{t('catalog.pagination.previous')}</span>
            </span>
          )}
        </li>
        {items.map((item) =>
          item.type === 'gap' ? (
            <li key={item.key} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={item.page}>
              <Link
                to={hrefFor(item.page)}
                aria-current={item.page === page ? 'page' : undefined}
                aria-label={t('catalog.pagination.page', { n: item.page })}
                className={cn(
                  base,
                  item.page === page ? 'bg-brand-700 text-white' : 'text-ink hover:bg-stone-100',
                )}
              >
                {item.page}
              </Link>
            </li>
          ),
        )}
        <li>
          {page < totalPages ? (
            <Link to={hrefFor(page + 1)} className={cn(base, 'hover:bg-stone-100')}>
              <span className="max-sm:sr-only">{t('catalog.pagination.next')}</span>
              <ChevronRight aria-hidden="true" className="h-4 w-4" />
            </Link>
          ) : (
            <span aria-disabled="true" className={cn(base, 'text-stone-500')}>
              <span className="max-sm:sr-only">{t('catalog.pagination.next')}</span>
              <ChevronRight aria-hidden="true" className="h-4 w-4" />
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
