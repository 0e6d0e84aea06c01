import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import type { MarketplaceFilters } from '../utils/marketplace-params';
import { FilterPanel, type FilterChange } from './filter-panel';

/** The filters on phones: a sheet from the side, focus kept inside until it closes. */
export default function FilterSheet({
  open,
  onOpenChange,
  filters,
  onChange,
  resultCount,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  filters: MarketplaceFilters;
  onChange: (change: FilterChange) => void;
  resultCount: number | undefined;
}) {
  const { t } = useTranslation();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <DialogPrimitive.Content className="fixed inset-y-0 right-0 z-50 flex w-full max-w-sm flex-col bg-white shadow-xl focus:outline-none">
          <div className="flex items-center justify-between border-b border-stone-200 px-4 py-3">
            <DialogPrimitive.Title className="text-lg font-semibold text-ink">
              {t('catalog.filters.title')}
            </DialogPrimitive.Title>
            <DialogPrimitive.Close
              aria-label={t('common.close')}
              className="rounded-md p-1.5 text-muted hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <X aria-hidden="true" className="h-5 w-5" />
            </DialogPrimitive.Close>
          </div>
          <DialogPrimitive.Description className="sr-only">
            {t('catalog.filters.description')}
          </DialogPrimitive.Description>
          <div className="flex-1 overflow-y-auto px-4 py-4">
            <FilterPanel filters={filters} onChange={onChange} idPrefix="sheet" />
          </div>
          <div className="border-t border-stone-200 p-4">
            <Button className="w-full" onClick={() => onOpenChange(false)}>
              {resultCount === undefined
                ? t('catalog.filters.done')
                : t('catalog.filters.showResults', { count: resultCount })}
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
