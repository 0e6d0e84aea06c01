import { InvoiceQuerySchema, SetRatesSchema, TaxSettingsSchema } from '../../../contract/invoices';
import { API_ROUTES as R } from '../../../contract/routes';
import type { Feature } from '../../http/context';
import { endpoint, rawEndpoint } from '../../http/endpoint';
import { parseQuery } from '../../http/validate';
import { getTaxSettings, huidMissing, listRates, setRates, setTaxSettings } from '../pricing/service';
import { renderInvoicePdf } from './pdf';
import { loadTaxInvoice } from './service';

/** Metal rates, tax settings, the HUID report and the GST tax invoice (docs/product-rules.md §10). */
export const invoicesFeature: Feature = (router) => {
  endpoint(router, R.sellerRates, {
    handle: async (deps, user) => ({ rates: await listRates(deps.db, user.id) }),
  });
  endpoint(router, R.sellerRatesSet, {
    input: SetRatesSchema,
    handle: (deps, user, input) => setRates(deps.db, user.id, input, deps.clock.now()),
  });
  endpoint(router, R.sellerTaxSettings, {
    handle: async (deps, user) => ({ settings: await getTaxSettings(deps.db, user.id) }),
  });
  endpoint(router, R.sellerTaxSettingsSet, {
    input: TaxSettingsSchema,
    handle: async (deps, user, input) => ({
      settings: await setTaxSettings(deps.db, user.id, input, deps.clock.now()),
    }),
  });
  endpoint(router, R.adminHuidMissing, { handle: (deps) => huidMissing(deps.db) });
  endpoint(router, R.orderInvoice, {
    input: InvoiceQuerySchema,
    handle: async (deps, user, { orderId }) => ({ invoice: await loadTaxInvoice(deps.db, orderId, user) }),
  });
  rawEndpoint(router, R.orderInvoicePdf, async (ctx) => {
    const { orderId, lang } = parseQuery(ctx, InvoiceQuerySchema);
    const invoice = await loadTaxInvoice(ctx.deps.db, orderId, ctx.state.user!);
    const pdf = await renderInvoicePdf(invoice, lang ?? 'en');
    ctx.set(
      'Content-Disposition',
      `inline; filename="invoice-${invoice.invoice.number.replace(/\//g, '-')}.pdf"`,
    );
    ctx.set('Cache-Control', 'private, no-store');
    ctx.type = 'application/pdf';
    ctx.body = pdf;
  });
};
