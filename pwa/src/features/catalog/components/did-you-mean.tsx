import { useTranslation } from 'react-i18next';
import type { DidYouMean as DidYouMeanAnswer } from '../../../../../api/contract/catalog';
import type { ProductCategory } from '../../../../../api/contract/constants';
import { ProductGrid } from './product-grid';

/**
 * What a search that found nothing offers instead (docs/product-rules.md "Search"): the category it most
 * likely meant, named in the reader's language, with some of its pieces, or the most popular pieces when no
 * category is near. Never a blank page.
 */
export function DidYouMean({
  text,
  offer,
  categoryHref,
}: {
  text: string;
  offer: DidYouMeanAnswer;
  categoryHref: (category: ProductCategory) => string;
}) {
  const { t } = useTranslation();
  const category = offer.category ? t(`catalog.categories.${offer.category}`) : null;
  return (
    <section aria-labelledby="did-you-mean-heading" className="flex flex-col gap-4">
      <p className="text-base text-ink" role="status">
        {t('catalog.search.nothingFound', { text })}
      </p>
      <h3 id="did-you-mean-heading" className="text-xl font-semibold text-ink first-letter:uppercase">
        {category ? t('catalog.search.didYouMean', { category }) : t('catalog.search.popularInstead')}
      </h3>
      {category && offer.category && (
        <p className="text-sm text-muted">
          {t('catalog.search.didYouMeanText', { category })}{' '}
          <a
            href={categoryHref(offer.category)}
            className="font-medium text-brand-700 underline underline-offset-2"
          >
            {t('catalog.search.seeAll', { category })}
          </a>
        </p>
      )}
      <ProductGrid
        products={offer.products}
        isPending={false}
        isError={false}
        skeletons={0}
        headingLevel={3}
        empty={{ title: t('catalog.grid.emptyTitle'), description: t('catalog.grid.emptyText') }}
      />
    </section>
  );
}
