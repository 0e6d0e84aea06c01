import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PRODUCT_CATEGORIES, type ProductCategory } from '../../../../../api/contract/constants';
import { cn } from '../../../lib/cn';

/** 'All' plus the 14 categories as links, so each choice is a URL (and Back returns to the previous one). */
export function CategoryStrip({
  current,
  hrefFor,
}: {
  current: ProductCategory | undefined;
  hrefFor: (category: ProductCategory | undefined) => string;
}) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t('catalog.categoriesLabel')} className="-mx-3 overflow-x-auto px-3 sm:mx-0 sm:px-0">
      <ul className="flex w-max gap-2 pb-2">
        {[undefined, ...PRODUCT_CATEGORIES].map((c) => {
          const active = current === c;
          return (
            <li key={c ?? 'all'}>
              <Link
                to={hrefFor(c)}
                aria-current={active ? 'true' : undefined}
                className={cn(
                  'inline-flex h-9 items-center rounded-full border px-4 text-sm font-medium whitespace-nowrap first-letter:uppercase',
                  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
                  active
                    ? 'border-brand-700 bg-brand-700 text-white'
                    : 'border-stone-300 bg-white text-ink hover:border-brand-600 hover:text-brand-800',
                )}
              >
                <span className="first-letter:uppercase">
                  {c ? t(`catalog.categories.${c}`) : t('catalog.allCategories')}
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
