import { Download, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { MAX_IMPORT_CHARS, type ProductImportResponse } from '../../../../../api/contract/products-csv';
import { API_ROUTES } from '../../../../../api/contract/routes';
import { Button, buttonClasses } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { translateMessage } from '../../../lib/i18n';
import { useImportProductsMutation } from '../api';

/**
 * Export and import of the shop's products as a CSV file (docs/product-rules.md "Products as CSV"). An import's
 * problems are listed by row and column under the buttons, so the seller can fix the file and try again.
 */
export function ProductsCsv() {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const importing = useImportProductsMutation();
  const [result, setResult] = useState<ProductImportResponse | null>(null);
  const resultId = useId();

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setResult(null);
    const text = await file.text();
    if (input.current) input.current.value = ''; // the same file can be chosen again after a fix
    if (text.length > MAX_IMPORT_CHARS) {
      toast.error(t('seller.products.csv.tooLarge'));
      return;
    }
    importing.mutate(text, {
      onSuccess: (r) => {
        setResult(r);
        if (r.errors.length === 0)
          toast.success(t('seller.products.csv.done', { created: r.created, updated: r.updated }));
      },
      onError: (err) =>
        toast.error(t('seller.products.csv.failed'), { description: translateMessage(errorMessage(err)) }),
    });
  };

  // Errors found while saving leave the other rows saved; errors found while checking leave everything as it was.
  const partial = result?.errors.some((e) => e.saved === false) ?? false;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <a href={API_ROUTES.productsExport.path} download className={buttonClasses('outline')}>
          <Download aria-hidden="true" className="h-4 w-4" />
          {t('seller.products.csv.export')}
        </a>
        <Button
          variant="outline"
          loading={importing.isPending}
          aria-describedby={result ? resultId : undefined}
          onClick={() => input.current?.click()}
        >
          <Upload aria-hidden="true" className="h-4 w-4" />
          {importing.isPending ? t('seller.products.csv.importing') : t('seller.products.csv.import')}
        </Button>
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          tabIndex={-1}
          aria-label={t('seller.products.csv.chooseFile')}
          onChange={(e) => void onFile(e.target.files?.[0])}
        />
      </div>
      <p className="text-sm text-muted">{t('seller.products.csv.hint')}</p>
      {result && result.errors.length > 0 && (
        <div
          id={resultId}
          role="alert"
          className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900"
        >
          <p className="font-semibold">
            {partial
              ? `${t('seller.products.csv.done', { created: result.created, updated: result.updated })} ${t('seller.products.csv.someNotSaved')}`
              : t('seller.products.csv.nothingSaved')}
          </p>
          <ul className="mt-2 max-h-64 list-disc space-y-1 overflow-y-auto pl-5">
            {result.errors.map((e, i) => (
              <li key={i}>
                <span className="font-medium">
                  {e.column
                    ? t('seller.products.csv.rowColumnError', { row: e.row, column: e.column })
                    : t('seller.products.csv.rowError', { row: e.row })}
                  :
                </span>{' '}
                {e.message}
              </li>
            ))}
          </ul>
          {result.errorCount > result.errors.length && (
            <p className="mt-2">
              {t('seller.products.csv.moreErrors', {
                count: result.errorCount - result.errors.length,
                shown: result.errors.length,
              })}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
