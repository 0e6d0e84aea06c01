import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import {
  Sheet,
  SheetCloseButton,
  SheetContent,
  SheetDescription,
  SheetTitle,
} from '../../../components/ui/sheet';
import type { MarketplaceFilters } from '../utils/marketplace-params';
import { FilterPanel, type FilterChange } from './filter-panel';

/** The filters on phones: a sheet from the side, focus kept inside until it closes. */
export default function FilterSheet({
  open,
  onOpenChange,
  filters,
  onChange,
  hrefFor,
  resultCount,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  filters: MarketplaceFilters;
  onChange: (change: FilterChange) => void;
  hrefFor: (change: FilterChange) => string;
  resultCount: number | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent side="right" width="sm" ownCloseButton>
        <div className="flex items-center justify-between border-b border-stone-200 px-4 py-3">
          <SheetTitle className="text-lg font-semibold text-ink">{t('catalog.filters.title')}</SheetTitle>
          <SheetCloseButton label={t('common.close')} />
        </div>
        <SheetDescription className="sr-only">{t('catalog.filters.description')}</SheetDescription>
        <div className="flex-1 overflow-y-auto px-4 py-4">
          <FilterPanel filters={filters} onChange={onChange} hrefFor={hrefFor} replace idPrefix="sheet" />
        </div>
        <div className="border-t border-stone-200 p-4">
          <Button className="w-full" onClick={() => onOpenChange(false)}>
            {resultCount === undefined
              ? t('catalog.filters.done')
              : t('catalog.filters.showResults', { count: resultCount })}
          </Button>
        </div>
      </SheetContent>
    </Sheet>
  );
}
