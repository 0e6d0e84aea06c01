import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { cn } from '../lib/cn';
import { paginationItems } from '../lib/pagination';

const base =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-md px-3 text-sm font-medium focus-visible:outline-2 focus-visible:outline-brand-600';

/** The locale keys of a pagination bar's texts (each area keeps its own words). */
export interface PaginationKeys {
  /** The navigation landmark's name. */
  nav: string;
  previous: string;
  next: string;
  /** The name of the link to page {n}. */
  page: string;
}

/**
 * Page links (1 sibling each side, docs/product-rules.md §9); real links, so pages can be opened in a new tab
 * and shared. `hrefFor` keeps the other URL parameters; `items` (page numbers, null for a gap) defaults to
 * paginationItems.
 */
export function Pagination({
  page,
  totalPages,
  hrefFor,
  labels,
  items,
  className,
}: {
  page: number;
  totalPages: number;
  hrefFor: (page: number) => string;
  labels: PaginationKeys;
  items?: readonly (number | null)[];
  className?: string;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  const shown =
    items ?? paginationItems(page, totalPages, 1).map((item) => (item.type === 'gap' ? null : item.page));
  const end = (to: number, enabled: boolean, children: React.ReactNode) =>
    enabled ? (
      <Link to={hrefFor(to)} className={cn(base, 'hover:bg-stone-100')}>
        {children}
      </Link>
    ) : (
      <span aria-disabled="true" className={cn(base, 'text-stone-500')}>
        {children}
      </span>
    );
  return (
    <nav aria-label={t(labels.nav)} className={cn('flex justify-center', className)}>
      <ul className="flex flex-wrap items-center justify-center gap-1">
        <li>
          {end(
            page - 1,
            page > 1,
            <>
              <ChevronLeft aria-hidden="true" className="h-4 w-4" />
              <span className="max-sm:sr-only">{t(labels.previous)}</span>
            </>,
          )}
        </li>
        {shown.map((p, i) =>
          p === null ? (
            <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted">
              …
            </li>
          ) : (
            <li key={p}>
              <Link
                to={hrefFor(p)}
                aria-current={p === page ? 'page' : undefined}
                aria-label={t(labels.page, { n: p })}
                className={cn(base, p === page ? 'bg-brand-700 text-white' : 'text-ink hover:bg-stone-100')}
              >
                {p}
              </Link>
            </li>
          ),
        )}
        <li>
          {end(
            page + 1,
            page < totalPages,
            <>
              <span className="max-sm:sr-only">{t(labels.next)}</span>
              <ChevronRight aria-hidden="true" className="h-4 w-4" />
            </>,
          )}
        </li>
      </ul>
    </nav>
  );
}
