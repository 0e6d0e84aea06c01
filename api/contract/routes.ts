import type { z } from 'zod';
import type {
  CodeSent,
  MobileAvailability,
  MobileCodeCheckSchema,
  MobileCodeRequestSchema,
  MobileSignUpSchema,
  MobileVerifyResult,
  NoticeSettings,
  NoticeSettingsSchema,
  PasswordResetSchema,
  ProfileMobileCodeSchema,
  ReauthCodeRequestSchema,
} from './mobile';
import type {
  PasswordChangeSchema,
  ProfileUpdateSchema,
  LoginSchema,
  RegisterSchema,
  SessionResponse,
  SuccessResponse,
  UserResponse,
} from './accounts';
import type {
  AdminCustomersResponse,
  AdminSellersResponse,
  SellerApprovalResponse,
  SellerApprovalSchema,
} from './admin';
import type {
  FamilyAskResponse,
  FamilyGuestResponse,
  FamilyGuestStateResponse,
  FamilyGuestTicketResponse,
  FamilyInviteResponse,
  FamilyLikeResponse,
  FamilyOpenResponse,
  FamilySignalResponse,
  FamilyStateResponse,
  familyAskSchema,
  familyDecideSchema,
  familyGuestPhotoSchema,
  familyGuestStateSchema,
  familyGuestStreamSchema,
  familyInviteSchema,
  familyLikeSchema,
  familyNoInputSchema,
  familyOpenSchema,
  familySignalSchema,
  familyStateSchema,
} from './call-family';
import type { AdminCallQualityResponse, callQualityReportSchema } from './call-quality';
import type {
  CallDetailResponse,
  CallItemsCreatedResponse,
  CallItemsResponse,
  CallProductSearchResponse,
  HoldResponse,
  HoldsResponse,
  callDetailQuerySchema,
  callItemsQuerySchema,
  callPhotoQuerySchema,
  callProductSearchSchema,
  createHoldSchema,
  releaseHoldSchema,
  sendChatSchema,
  sendPhotoSchema,
  shareProductsSchema,
} from './call-selling';
import type {
  CallHistoryResponse,
  CallSignalsResponse,
  CallStatusResponse,
  EndCallResponse,
  IncomingCallsResponse,
  InitiateCallResponse,
  RespondCallResponse,
  SendSignalResponse,
  callIdQuerySchema,
  endCallSchema,
  initiateCallSchema,
  respondCallSchema,
  sendSignalSchema,
  signalsQuerySchema,
} from './calls';
import type { Cart, CartAddSchema, CartChangeResponse, CartRemoveSchema, CartUpdateSchema } from './cart';
import type {
  CatalogStats,
  ProductGetResponse,
  ProductListResponse,
  SearchSuggestions,
  SellerListResponse,
  StoreResponse,
  TopSellersResponse,
  productGetQuerySchema,
  productListQuerySchema,
  sellerListQuerySchema,
  shopCallStateQuerySchema,
  storeByIdQuerySchema,
  storeQuerySchema,
  suggestionsQuerySchema,
  topSellersQuerySchema,
} from './catalog';
import type { CheckoutResponse, CheckoutSchema } from './checkout';
import type {
  HuidMissingResponse,
  InvoiceQuerySchema,
  RatesResponse,
  SetRatesSchema,
  TaxInvoice,
  TaxSettings,
  TaxSettingsSchema,
} from './invoices';
import type { UserRole } from './constants';
import type {
  CustomerOrdersQuerySchema,
  Order,
  OrderDetailsQuerySchema,
  OrdersPage,
  OrderStatusUpdateResponse,
  OrderStatusUpdateSchema,
  RateProductResponse,
  RateProductSchema,
  SellerOrdersQuerySchema,
} from './orders';
import type {
  ProductCreateSchema,
  ProductDeleteResponse,
  ProductDeleteSchema,
  ProductOpenOrdersQuerySchema,
  ProductOpenOrdersResponse,
  ProductMutationResponse,
  ProductUpdateSchema,
} from './products';
import type {
  AdminLedgerResponse,
  PaymentOptions,
  PaymentResult,
  PaymentSettings,
  PaymentSettingsSchema,
  PaymentStart,
  PayoutSchema,
  SellerLedgerResponse,
  ShopLedger,
  StartPaymentSchema,
  VerifyPaymentSchema,
} from './payments';
import type { ProductImportResponse, ProductImportSchema } from './products-csv';
import type { PushPublicKeyResponse, PushSubscriptionSchema, PushUnsubscribeSchema } from './push';
import type {
  SellerProfileCreatedResponse,
  SellerProfileResponse,
  SellerProfileUpdateSchema,
  SellerRegistrationSchema,
} from './sellers';
import type { ShopCallStateResponse, ShopHoursResponse, shopHoursSchema } from './shop-hours';
import type {
  CallbackListResponse,
  CallbackRequest,
  callbackIdSchema,
  callBackMissedSchema,
  createCallbackSchema,
} from './callbacks';
import type {
  CallResumeResponse,
  IceServersResponse,
  VideoTokenResponse,
  videoTokenQuerySchema,
} from './video';
import type {
  Appointment,
  AppointmentListResponse,
  AppointmentSettings,
  SlotsResponse,
  appointmentIdQuerySchema,
  appointmentIdSchema,
  appointmentSettingsSchema,
  bookAppointmentSchema,
  cancelAppointmentSchema,
  rescheduleAppointmentSchema,
  slotsQuerySchema,
} from './appointments';

/**
 * The route table: every path the server answers, with everything the server, the PWA and the service worker
 * need to know about it. Adding an endpoint is one entry here plus its handler (api/src/features/<area>/routes.ts);
 * tests/api/routes-table.test.ts fails when a mounted route has no entry or an entry no route.
 *
 * This file holds data and types only, never a zod schema at run time: the PWA's entry and the service worker
 * import it, and zod would add ~90 kB (gzipped) to them. An entry names its schema by type (`typeof
 * productListQuerySchema`), and the server's `endpoint()` (api/src/http/endpoint.ts) only accepts that very
 * schema when it mounts the route, so the two cannot drift apart.
 */

/** Who may call a route: anyone, any signed-in user, or the signed-in users of the listed roles. */
export type RouteAuth = 'public' | 'signed-in' | readonly UserRole[];

/**
 * What a route does to the server's short-lived catalogue cache (api/src/http/response-cache.ts):
 * - `catalogue`: a public catalogue read, answered from the cache;
 * - `private`: a read that is never cached (it depends on who asks);
 * - `clears-catalogue`: a write that may change what the catalogue shows: the cache is cleared after it
 *   (the default for a write, so a new endpoint is safe);
 * - `catalogue-neutral`: a write that never changes the catalogue (sign-in, calls, carts, push), or that drops
 *   only the answers showing its products itself (sales, order status, ratings).
 */
export type CacheClass = 'catalogue' | 'private' | 'clears-catalogue' | 'catalogue-neutral';

export interface RouteDescriptor<
  S extends z.ZodType | undefined = z.ZodType | undefined,
  R = unknown,
  A extends RouteAuth = RouteAuth,
> {
  readonly method: 'GET' | 'POST';
  /** The path as @koa/router takes it (`:name` for a parameter). */
  readonly path: string;
  readonly auth: A;
  /** The status of a successful answer. */
  readonly status: number;
  /** The JSON body limit: `large` for bodies that carry images as data URIs, `none` for a GET. */
  readonly bodyLimit: 'none' | 'small' | 'large';
  readonly cache: CacheClass;
  /**
   * `quiet-poll`: a fast, successful answer is logged at debug (endpoints every open tab polls every few
   * seconds: at info they would be thousands of identical lines a second).
   */
  readonly log: 'info' | 'quiet-poll';
  /**
   * What the service worker (sw/sw.ts) does with it: `network-first` keeps the last answer for offline use
   * (public catalogue reads only), `cache-first` for immutable media; `network-only` for everything else.
   */
  readonly serviceWorker: 'network-only' | 'network-first' | 'cache-first';
  /**
   * `middleware`: the session is looked up before the route (api/src/http/session.ts); `in-route`: the route
   * reads the session in its own statement (one round trip instead of two, for the hottest endpoints);
   * `none`: not an API route (no session at all).
   */
  readonly session: 'middleware' | 'in-route' | 'none';
  /** Type only, never set: the schema of the query (GET) or JSON body (POST), and the answer's shape. */
  readonly types?: { input: S; response: R };
}

/** Fields a schema coerces (typed `unknown` on input) are optional; the others keep their type. */
type Loose<I> = { [K in keyof I as unknown extends I[K] ? never : K]: I[K] } & {
  [K in keyof I as unknown extends I[K] ? K : never]?: I[K];
};

/** The input a client sends to a route (what its schema accepts), `void` for a route that takes none. */
export type RouteInput<D> =
  D extends RouteDescriptor<infer S, unknown> ? (S extends z.ZodType ? Loose<z.input<S>> : void) : never;
/** The answer of a route. */
export type RouteResponse<D> = D extends RouteDescriptor<z.ZodType | undefined, infer R> ? R : never;

type Options<A extends RouteAuth> = Partial<
  Omit<RouteDescriptor<undefined, unknown, A>, 'method' | 'path' | 'types'>
> & {
  auth: A;
};

/** What a route is unless its entry says otherwise: a write clears the catalogue cache and has a small body. */
const DEFAULTS = {
  GET: { bodyLimit: 'none', cache: 'private' },
  POST: { bodyLimit: 'small', cache: 'clears-catalogue' },
} as const;

/**
 * `get<R, S>()(path, options)`: a route answering R whose query (GET) or JSON body (POST) is parsed with a
 * schema of type S.
 */
function describe(method: 'GET' | 'POST') {
  return <R, S extends z.ZodType | undefined = undefined>() =>
    <const A extends RouteAuth>(path: string, opts: Options<A>): RouteDescriptor<S, R, A> => ({
      method,
      path,
      status: 200,
      log: 'info',
      serviceWorker: 'network-only',
      session: 'middleware',
      ...DEFAULTS[method],
      ...opts,
    });
}
const get = describe('GET');
const post = describe('POST');

const CUSTOMER = ['customer'] as const;
const SELLER = ['seller'] as const;
const SELLER_OR_ADMIN = ['seller', 'admin'] as const;
const CUSTOMER_OR_SELLER = ['customer', 'seller'] as const;
const ADMIN = ['admin'] as const;
const NEUTRAL = { cache: 'catalogue-neutral' } as const;
/** A public catalogue read: served from the server's cache, kept by the service worker for offline use. */
const CATALOGUE = { auth: 'public', cache: 'catalogue', serviceWorker: 'network-first' } as const;

export const API_ROUTES = {
  // Platform
  health: get<{ status: 'ok'; database: string }>()('/healthz', { auth: 'public', session: 'none' }),
  // Prometheus text; answers only with METRICS_TOKEN configured and sent as a Bearer token (else 404).
  metrics: get<string>()('/metrics', { auth: 'public', session: 'none', log: 'quiet-poll' }),
  media: get<Uint8Array>()('/media/:key', { auth: 'public', session: 'none', serviceWorker: 'cache-first' }),

  // Accounts
  session: get<SessionResponse>()('/_api/auth/session', { auth: 'public' }),
  login: post<UserResponse, typeof LoginSchema>()('/_api/auth/login_with_password', {
    auth: 'public',
    ...NEUTRAL,
  }),
  register: post<UserResponse, typeof RegisterSchema>()('/_api/auth/register_with_password', {
    auth: 'public',
    status: 201,
    ...NEUTRAL,
  }),
  logout: post<SuccessResponse>()('/_api/auth/logout', { auth: 'public', ...NEUTRAL }),
  // A user's name and avatar show on their shop's cards: a profile change clears the catalogue.
  profileUpdate: post<UserResponse, typeof ProfileUpdateSchema>()('/_api/user/profile/update', {
    auth: 'signed-in',
  }),
  passwordChange: post<SuccessResponse, typeof PasswordChangeSchema>()('/_api/user/password/change', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),
  // The owner has read the notice of failed sign-ins (User.failedLogins).
  loginNoticeDismiss: post<SuccessResponse>()('/_api/user/login-notice/dismiss', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),

  // Mobile sign-in, password reset by code and notices off the app (issue #37).
  mobileAvailability: get<MobileAvailability>()('/_api/auth/mobile', { auth: 'public' }),
  mobileCodeSend: post<CodeSent, typeof MobileCodeRequestSchema>()('/_api/auth/mobile/code', {
    auth: 'public',
    ...NEUTRAL,
  }),
  mobileCodeVerify: post<MobileVerifyResult, typeof MobileCodeCheckSchema>()('/_api/auth/mobile/verify', {
    auth: 'public',
    ...NEUTRAL,
  }),
  mobileSignUp: post<UserResponse, typeof MobileSignUpSchema>()('/_api/auth/mobile/sign-up', {
    auth: 'public',
    status: 201,
    ...NEUTRAL,
  }),
  passwordResetCode: post<CodeSent, typeof MobileCodeRequestSchema>()('/_api/auth/password-reset/code', {
    auth: 'public',
    ...NEUTRAL,
  }),
  passwordReset: post<UserResponse, typeof PasswordResetSchema>()('/_api/auth/password-reset', {
    auth: 'public',
    ...NEUTRAL,
  }),
  profileMobileCode: post<CodeSent, typeof ProfileMobileCodeSchema>()('/_api/user/mobile/code', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),
  // A code to the account's own number: the proof a mobile-only account gives for a change (issue #46).
  profileReauthCode: post<CodeSent, typeof ReauthCodeRequestSchema>()('/_api/user/reauth/code', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),
  profileMobileVerify: post<NoticeSettings, typeof MobileCodeCheckSchema>()('/_api/user/mobile/verify', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),
  noticeSettings: get<NoticeSettings>()('/_api/user/notices', { auth: 'signed-in' }),
  noticeSettingsSet: post<NoticeSettings, typeof NoticeSettingsSchema>()('/_api/user/notices', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),
  // Twilio's signed webhook for a message received (a "STOP"), form-encoded, outside /_api/.
  twilioInboundSms: post<string>()('/webhooks/twilio/sms', { auth: 'public', session: 'none', ...NEUTRAL }),

  // Catalogue (public)
  productsList: get<ProductListResponse, typeof productListQuerySchema>()('/_api/products/list', CATALOGUE),
  productsGet: get<ProductGetResponse, typeof productGetQuerySchema>()('/_api/products/get', CATALOGUE),
  suggestions: get<SearchSuggestions, typeof suggestionsQuerySchema>()('/_api/search/suggestions', CATALOGUE),
  sellersList: get<SellerListResponse, typeof sellerListQuerySchema>()('/_api/sellers/list', CATALOGUE),
  sellersTop: get<TopSellersResponse, typeof topSellersQuerySchema>()('/_api/sellers/top', CATALOGUE),
  store: get<StoreResponse, typeof storeQuerySchema>()('/_api/seller/store', CATALOGUE),
  storeById: get<StoreResponse, typeof storeByIdQuerySchema>()('/_api/seller/store/by-id', CATALOGUE),
  catalogStats: get<CatalogStats>()('/_api/catalog/stats', CATALOGUE),

  // Sellers
  sellerProfileSetup: post<SellerProfileCreatedResponse, typeof SellerRegistrationSchema>()(
    '/_api/seller/profile/setup',
    { auth: SELLER, status: 201 },
  ),
  // An admin tool: registers a shop for the admin's own account.
  sellerRegister: post<SellerProfileCreatedResponse, typeof SellerRegistrationSchema>()(
    '/_api/seller/register',
    {
      auth: ADMIN,
      status: 201,
    },
  ),
  sellerProfile: get<SellerProfileResponse>()('/_api/seller/profile', { auth: SELLER_OR_ADMIN }),
  sellerProfileUpdate: post<SellerProfileResponse, typeof SellerProfileUpdateSchema>()(
    '/_api/seller/profile/update',
    { auth: SELLER_OR_ADMIN },
  ),
  // Shop hours and away (issue #22): the shop's own setting; changing it changes the catalogue's call states.
  shopHours: get<ShopHoursResponse>()('/_api/seller/hours', { auth: SELLER_OR_ADMIN }),
  // One shop's live call state (issue #50): asked every few seconds by the pages that offer its call, so never
  // cached and logged quietly.
  shopCallState: get<ShopCallStateResponse, typeof shopCallStateQuerySchema>()('/_api/shop/call_state', {
    auth: 'public',
    log: 'quiet-poll',
  }),
  shopHoursSave: post<ShopHoursResponse, typeof shopHoursSchema>()('/_api/seller/hours', {
    auth: SELLER_OR_ADMIN,
  }),
  productCreate: post<ProductMutationResponse, typeof ProductCreateSchema>()('/_api/products/create', {
    auth: SELLER_OR_ADMIN,
    status: 201,
    bodyLimit: 'large',
  }),
  productUpdate: post<ProductMutationResponse, typeof ProductUpdateSchema>()('/_api/products/update', {
    auth: SELLER_OR_ADMIN,
    bodyLimit: 'large',
  }),
  productDelete: post<ProductDeleteResponse, typeof ProductDeleteSchema>()('/_api/products/delete', {
    auth: SELLER_OR_ADMIN,
  }),
  // The delete dialog names the open orders that include the product (issue #48).
  productOpenOrders: get<ProductOpenOrdersResponse, typeof ProductOpenOrdersQuerySchema>()(
    '/_api/products/open-orders',
    { auth: SELLER_OR_ADMIN },
  ),
  // The shop's products as a CSV file, and changes back from one (issue #25; contract/products-csv.ts).
  productsExport: get<string>()('/_api/seller/products/export.csv', { auth: SELLER_OR_ADMIN }),
  productsImport: post<ProductImportResponse, typeof ProductImportSchema>()('/_api/seller/products/import', {
    auth: SELLER_OR_ADMIN,
    bodyLimit: 'large',
  }),

  // Admin
  adminSellers: get<AdminSellersResponse>()('/_api/admin/sellers', { auth: ADMIN }),
  adminCustomers: get<AdminCustomersResponse>()('/_api/admin/customers', { auth: ADMIN }),
  sellerApprove: post<SellerApprovalResponse, typeof SellerApprovalSchema>()('/_api/admin/seller/approve', {
    auth: ADMIN,
  }),
  adminCallQuality: get<AdminCallQualityResponse>()('/_api/admin/call-quality', { auth: ADMIN }),

  // Cart and checkout
  cartList: get<Cart>()('/_api/cart/list', { auth: CUSTOMER, session: 'in-route' }),
  cartAdd: post<CartChangeResponse, typeof CartAddSchema>()('/_api/cart/add', {
    auth: CUSTOMER,
    session: 'in-route',
    ...NEUTRAL,
  }),
  cartUpdate: post<CartChangeResponse, typeof CartUpdateSchema>()('/_api/cart/update', {
    auth: CUSTOMER,
    ...NEUTRAL,
  }),
  cartRemove: post<SuccessResponse, typeof CartRemoveSchema>()('/_api/cart/remove', {
    auth: CUSTOMER,
    ...NEUTRAL,
  }),
  // Sales drop only the catalogue answers showing their products.
  // 201 for new orders; a replay (the same Idempotency-Key) answers with the first answer's status.
  checkout: post<CheckoutResponse, typeof CheckoutSchema>()('/_api/checkout/create', {
    auth: CUSTOMER,
    status: 201,
    session: 'in-route',
    ...NEUTRAL,
  }),

  // Orders
  customerOrders: get<OrdersPage, typeof CustomerOrdersQuerySchema>()('/_api/orders/customer', {
    auth: CUSTOMER,
  }),
  // Admins may open the seller pages; they see the orders of their own shop, if they have one.
  sellerOrders: get<OrdersPage, typeof SellerOrdersQuerySchema>()('/_api/orders/seller', {
    auth: SELLER_OR_ADMIN,
  }),
  orderDetails: get<{ order: Order }, typeof OrderDetailsQuerySchema>()('/_api/order/details', {
    auth: 'signed-in',
  }),
  orderStatusUpdate: post<OrderStatusUpdateResponse, typeof OrderStatusUpdateSchema>()(
    '/_api/orders/update-status',
    { auth: SELLER, ...NEUTRAL },
  ),
  rateProduct: post<RateProductResponse, typeof RateProductSchema>()('/_api/orders/rate', {
    auth: CUSTOMER,
    ...NEUTRAL,
  }),

  // Calls
  callInitiate: post<InitiateCallResponse, typeof initiateCallSchema>()('/_api/call/initiate', {
    auth: CUSTOMER,
    status: 201,
    ...NEUTRAL,
  }),
  callIncoming: get<IncomingCallsResponse>()('/_api/call/incoming', {
    auth: SELLER,
    session: 'in-route',
    log: 'quiet-poll',
  }),
  callRespond: post<RespondCallResponse, typeof respondCallSchema>()('/_api/call/respond', {
    auth: 'signed-in',
    ...NEUTRAL,
  }),
  // Also the target of navigator.sendBeacon on page unload.
  callEnd: post<EndCallResponse, typeof endCallSchema>()('/_api/call/end', { auth: 'signed-in', ...NEUTRAL }),
  callStatus: get<CallStatusResponse, typeof callIdQuerySchema>()('/_api/call/status', {
    auth: 'signed-in',
    log: 'quiet-poll',
  }),
  callHistory: get<CallHistoryResponse>()('/_api/calls/history', { auth: 'signed-in' }),
  // A page reloaded during a call: its status, video token and signals in one answer (issue #50).
  callResume: get<CallResumeResponse, typeof callIdQuerySchema>()('/_api/call/resume', { auth: 'signed-in' }),
  callSignal: post<SendSignalResponse, typeof sendSignalSchema>()('/_api/call/signal', {
    auth: 'signed-in',
    status: 201,
    ...NEUTRAL,
  }),
  callSignals: get<CallSignalsResponse, typeof signalsQuerySchema>()('/_api/call/signals', {
    auth: 'signed-in',
    log: 'quiet-poll',
  }),
  // Family in the call (call-family.ts, issue #52). A guest has no session: its token comes in a header
  // (FAMILY_GUEST_HEADER), so the guest routes are public and check that token themselves.
  familyInvite: post<FamilyInviteResponse, typeof familyInviteSchema>()('/_api/family/invite', {
    auth: CUSTOMER,
    status: 201,
    ...NEUTRAL,
  }),
  familyOpen: post<FamilyOpenResponse, typeof familyOpenSchema>()('/_api/family/open', {
    auth: 'public',
    ...NEUTRAL,
  }),
  familyAsk: post<FamilyAskResponse, typeof familyAskSchema>()('/_api/family/ask', {
    auth: 'public',
    status: 201,
    ...NEUTRAL,
  }),
  familyState: get<FamilyStateResponse, typeof familyStateSchema>()('/_api/family/state', {
    auth: CUSTOMER_OR_SELLER,
    log: 'quiet-poll',
  }),
  familyDecide: post<FamilyGuestResponse, typeof familyDecideSchema>()('/_api/family/decide', {
    auth: SELLER,
    ...NEUTRAL,
  }),
  familyGuest: get<FamilyGuestStateResponse, typeof familyGuestStateSchema>()('/_api/family/guest', {
    auth: 'public',
    log: 'quiet-poll',
  }),
  // A guest's event stream (Server-Sent Events): EventSource sends no header, so the page first trades its
  // token (in the header) for a short-lived ticket, and opens the stream with the ticket in the query.
  familyGuestTicket: post<FamilyGuestTicketResponse, typeof familyNoInputSchema>()(
    '/_api/family/guest/ticket',
    { auth: 'public', ...NEUTRAL },
  ),
  familyGuestEvents: get<string, typeof familyGuestStreamSchema>()('/_api/family/guest/events', {
    auth: 'public',
  }),
  familySignal: post<FamilySignalResponse, typeof familySignalSchema>()('/_api/family/signal', {
    auth: 'public',
    status: 201,
    ...NEUTRAL,
  }),
  familyLike: post<FamilyLikeResponse, typeof familyLikeSchema>()('/_api/family/like', {
    auth: 'public',
    status: 201,
    ...NEUTRAL,
  }),
  // An admitted guest's ICE servers, with relay credentials of their own (the guest's token in its header).
  familyIceServers: get<IceServersResponse, typeof familyNoInputSchema>()('/_api/family/ice-servers', {
    auth: 'public',
  }),
  // A photo the jeweller sent, for the call's admitted guests (their token in its header): bytes, like callPhoto.
  familyGuestPhoto: get<string, typeof familyGuestPhotoSchema>()('/_api/family/guest/photo', {
    auth: 'public',
  }),
  familyLeave: post<FamilyGuestResponse, typeof familyNoInputSchema>()('/_api/family/leave', {
    auth: 'public',
    ...NEUTRAL,
  }),
  // Also the target of navigator.sendBeacon when the page closes.
  callQuality: post<void, typeof callQualityReportSchema>()('/_api/call/quality', {
    auth: 'signed-in',
    status: 204,
    ...NEUTRAL,
  }),
  // Call-back requests (callbacks.ts, issue #22): the customer asks, the jeweller's call-back rings the customer.
  callbackCreate: post<CallbackRequest, typeof createCallbackSchema>()('/_api/callbacks/create', {
    auth: CUSTOMER,
    status: 201,
    ...NEUTRAL,
  }),
  callbacksMine: get<CallbackListResponse>()('/_api/callbacks/mine', { auth: CUSTOMER }),
  callbackWithdraw: post<CallbackRequest, typeof callbackIdSchema>()('/_api/callbacks/withdraw', {
    auth: CUSTOMER,
    ...NEUTRAL,
  }),
  // The fallback poll of a customer with an open request: the jeweller's call-backs ringing them.
  callbacksRinging: get<IncomingCallsResponse>()('/_api/callbacks/ringing', {
    auth: CUSTOMER,
    log: 'quiet-poll',
  }),
  callbackQueue: get<CallbackListResponse>()('/_api/callbacks/queue', { auth: SELLER }),
  callbackCall: post<InitiateCallResponse, typeof callbackIdSchema>()('/_api/callbacks/call', {
    auth: SELLER,
    status: 201,
    ...NEUTRAL,
  }),
  callbackCallMissed: post<InitiateCallResponse, typeof callBackMissedSchema>()(
    '/_api/callbacks/call-missed',
    {
      auth: SELLER,
      status: 201,
      ...NEUTRAL,
    },
  ),
  // Booked video appointments (appointments.ts, issue #22): a customer books a free slot; either side starts
  // the call at the time; the jeweller reschedules or cancels with a reason.
  appointmentSlots: get<SlotsResponse, typeof slotsQuerySchema>()('/_api/appointments/slots', {
    auth: 'public',
  }),
  appointmentBook: post<Appointment, typeof bookAppointmentSchema>()('/_api/appointments/book', {
    auth: CUSTOMER,
    status: 201,
    ...NEUTRAL,
  }),
  appointmentsMine: get<AppointmentListResponse>()('/_api/appointments/mine', { auth: CUSTOMER }),
  appointmentCancel: post<Appointment, typeof cancelAppointmentSchema>()('/_api/appointments/cancel', {
    auth: CUSTOMER_OR_SELLER,
    ...NEUTRAL,
  }),
  appointmentStart: post<InitiateCallResponse, typeof appointmentIdSchema>()('/_api/appointments/start', {
    auth: CUSTOMER_OR_SELLER,
    status: 201,
    ...NEUTRAL,
  }),
  // text/calendar, for either side of the appointment; anyone else gets 404.
  appointmentCalendar: get<string, typeof appointmentIdQuerySchema>()('/_api/appointments/calendar.ics', {
    auth: CUSTOMER_OR_SELLER,
  }),
  sellerAppointments: get<AppointmentListResponse>()('/_api/seller/appointments', { auth: SELLER }),
  appointmentReschedule: post<Appointment, typeof rescheduleAppointmentSchema>()(
    '/_api/seller/appointments/reschedule',
    { auth: SELLER, ...NEUTRAL },
  ),
  appointmentSettings: get<AppointmentSettings>()('/_api/seller/appointment-settings', { auth: SELLER }),
  appointmentSettingsSave: post<AppointmentSettings, typeof appointmentSettingsSchema>()(
    '/_api/seller/appointment-settings',
    { auth: SELLER, ...NEUTRAL },
  ),
  // Selling in the call (call-selling.ts): participants only; anyone else gets 404.
  callProducts: get<CallProductSearchResponse, typeof callProductSearchSchema>()('/_api/call/products', {
    auth: SELLER,
  }),
  callShare: post<CallItemsCreatedResponse, typeof shareProductsSchema>()('/_api/call/share', {
    auth: SELLER,
    status: 201,
    ...NEUTRAL,
  }),
  callMessage: post<CallItemsCreatedResponse, typeof sendChatSchema>()('/_api/call/message', {
    auth: 'signed-in',
    status: 201,
    ...NEUTRAL,
  }),
  callPhotoSend: post<CallItemsCreatedResponse, typeof sendPhotoSchema>()('/_api/call/photo', {
    auth: SELLER,
    status: 201,
    bodyLimit: 'large',
    ...NEUTRAL,
  }),
  // The photo's bytes (image/jpeg), private to the two participants: never cached by the worker.
  callPhoto: get<string, typeof callPhotoQuerySchema>()('/_api/call/photo', { auth: 'signed-in' }),
  callItems: get<CallItemsResponse, typeof callItemsQuerySchema>()('/_api/call/items', {
    auth: 'signed-in',
    log: 'quiet-poll',
  }),
  callDetail: get<CallDetailResponse, typeof callDetailQuerySchema>()('/_api/call/detail', {
    auth: 'signed-in',
  }),
  // Holds take stock (the catalogue shows it), so they clear the catalogue cache.
  holdCreate: post<HoldResponse, typeof createHoldSchema>()('/_api/holds', { auth: CUSTOMER, status: 201 }),
  holdRelease: post<HoldResponse, typeof releaseHoldSchema>()('/_api/holds/release', { auth: 'signed-in' }),
  sellerHolds: get<HoldsResponse>()('/_api/holds/seller', { auth: SELLER }),
  videoToken: get<VideoTokenResponse, typeof videoTokenQuerySchema>()('/_api/video/token', {
    auth: 'signed-in',
  }),
  // The caller's ICE servers while the call still rings (same query as the token).
  videoIceServers: get<IceServersResponse, typeof videoTokenQuerySchema>()('/_api/video/ice-servers', {
    auth: 'signed-in',
  }),
  // The signed-in user's event stream (Server-Sent Events): text/event-stream, open for as long as the session.
  events: get<string>()('/_api/events', { auth: 'signed-in' }),

  // Pricing and the GST invoice (issue #25, invoices.ts). A rate change reprices the shop's products: it
  // clears the catalogue (the default of a write).
  sellerRates: get<RatesResponse>()('/_api/seller/rates', { auth: SELLER }),
  sellerRatesSet: post<RatesResponse, typeof SetRatesSchema>()('/_api/seller/rates', { auth: SELLER }),
  sellerTaxSettings: get<{ settings: TaxSettings | null }>()('/_api/seller/tax-settings', { auth: SELLER }),
  sellerTaxSettingsSet: post<{ settings: TaxSettings | null }, typeof TaxSettingsSchema>()(
    '/_api/seller/tax-settings',
    { auth: SELLER, ...NEUTRAL },
  ),
  adminHuidMissing: get<HuidMissingResponse>()('/_api/admin/huid-missing', { auth: ADMIN }),
  // The order's customer or its seller; anyone else: 404.
  orderInvoice: get<{ invoice: TaxInvoice }, typeof InvoiceQuerySchema>()('/_api/order/invoice', {
    auth: 'signed-in',
  }),
  orderInvoicePdf: get<Uint8Array, typeof InvoiceQuerySchema>()('/_api/order/invoice.pdf', {
    auth: 'signed-in',
  }),

  // Payments (issue #24, payments.ts). Paying changes no stock (checkout took it): catalogue-neutral.
  paymentOptions: get<PaymentOptions>()('/_api/payments/options', { auth: CUSTOMER }),
  paymentStart: post<PaymentStart, typeof StartPaymentSchema>()('/_api/payments/start', {
    auth: CUSTOMER,
    ...NEUTRAL,
  }),
  paymentVerify: post<PaymentResult, typeof VerifyPaymentSchema>()('/_api/payments/verify', {
    auth: CUSTOMER,
    ...NEUTRAL,
  }),
  // Razorpay's signed webhook: server to server, outside /_api/ (no session, no browser origin); the
  // signature of its raw body is the only credential.
  razorpayWebhook: post<{ status: string }>()('/webhooks/razorpay', {
    auth: 'public',
    session: 'none',
    ...NEUTRAL,
  }),
  sellerPaymentSettings: get<PaymentSettings>()('/_api/seller/payment-settings', { auth: SELLER }),
  sellerPaymentSettingsSet: post<PaymentSettings, typeof PaymentSettingsSchema>()(
    '/_api/seller/payment-settings',
    { auth: SELLER, ...NEUTRAL },
  ),
  sellerLedger: get<SellerLedgerResponse>()('/_api/seller/ledger', { auth: SELLER }),
  adminLedger: get<AdminLedgerResponse>()('/_api/admin/ledger', { auth: ADMIN }),
  adminPayout: post<{ ledger: ShopLedger }, typeof PayoutSchema>()('/_api/admin/payouts', {
    auth: ADMIN,
    status: 201,
    ...NEUTRAL,
  }),

  // Web push
  pushPublicKey: get<PushPublicKeyResponse>()('/_api/push/public-key', { auth: 'public' }),
  pushSubscribe: post<SuccessResponse, typeof PushSubscriptionSchema>()('/_api/push/subscribe', {
    auth: 'signed-in',
    status: 201,
    ...NEUTRAL,
  }),
  pushUnsubscribe: post<SuccessResponse & { removed: number }, typeof PushUnsubscribeSchema>()(
    '/_api/push/unsubscribe',
    { auth: 'signed-in', ...NEUTRAL },
  ),
} as const satisfies Record<string, RouteDescriptor>;

export type ApiRouteName = keyof typeof API_ROUTES;

/** Every route of the table. */
export const ALL_ROUTES: readonly RouteDescriptor[] = Object.values(API_ROUTES);

const byMethodAndPath = new Map<string, RouteDescriptor>(ALL_ROUTES.map((r) => [`${r.method} ${r.path}`, r]));

/** The descriptor of an exact method and path (parameterised paths are not matched: see media). */
export function routeAt(method: string, path: string): RouteDescriptor | undefined {
  return byMethodAndPath.get(`${method === 'HEAD' ? 'GET' : method} ${path}`);
}

/** The paths of the routes that satisfy `test`. */
export function pathsWhere(test: (route: RouteDescriptor) => boolean): ReadonlySet<string> {
  return new Set(ALL_ROUTES.filter(test).map((r) => r.path));
}
