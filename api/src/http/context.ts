import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { UserRole } from '../../contract/constants';
import type { BackgroundTasks } from '../background';
import type { Config } from '../config';
import type { ResponseCache } from './response-cache';
import type { EventHub } from '../features/events/hub';
import type { PaymentGateway } from '../features/payments/gateway';
import type { SmsProvider } from '../features/notices/provider';

/** The signed-in user as loaded for each request. */
export interface SessionUser {
  id: number;
  email: string;
  displayName: string;
  fullName: string | null;
  role: UserRole;
  avatarUrl: string | null;
  phone: string | null;
  address: string | null;
  createdAt: Date;
  /** Failed sign-ins on this account since the owner last dismissed the notice. */
  failedLogins: { count: number; lastAt: Date } | null;
}

export interface AppState {
  user?: SessionUser;
  /** Hash of the session token, as stored in sessions.id. */
  sessionId?: string;
  requestId?: string;
}

/** A clock that tests may replace; everything time-based asks it. */
export interface Clock {
  now(): Date;
}

/** A call that just started ringing, as announced to listeners such as web push. */
export interface IncomingCallEvent {
  callId: number;
  sellerId: number;
  callerId: number;
  callerName: string;
  /** The piece the customer is calling about, if any. */
  productName?: string | null;
  /** Whom the call rings when not the seller: the customer of a jeweller's call-back (issue #22). */
  rungUserId?: number;
}

/** A customer asked a shop to call back (issue #22): the jeweller is told by push. */
export interface CallbackRequestedEvent {
  requestId: number;
  sellerId: number;
  customerName: string;
  productName: string | null;
}

/** A customer's online payment paid an order of this shop (issue #48): the jeweller's phone is told. */
export interface OrderPaidEvent {
  orderId: number;
  sellerId: number;
  customerName: string;
  amountPaise: number;
}

/** In-process announcements between feature areas (each process announces what it handled). */
export interface AppHooks {
  incomingCall: ((event: IncomingCallEvent) => void)[];
  callbackRequested: ((event: CallbackRequestedEvent) => void)[];
  /** After the commit that paid them (never awaited). */
  orderPaid: ((event: OrderPaidEvent) => void)[];
}

/** What every handler can reach through ctx: the database, configuration, clock and logger. */
export interface AppDeps {
  db: Knex;
  dbKind: 'pglite' | 'pg';
  config: Config;
  clock: Clock;
  logger: Logger;
  hooks: AppHooks;
  /** Public catalogue answers kept for a few seconds; cleared by any write made through this process. */
  catalogCache: ResponseCache;
  /** The open event streams of this process, woken by the database's notifications. */
  events: EventHub;
  /** An https.Agent for outgoing web push requests (tests pass one that trusts a local receiver). */
  pushAgent?: import('node:https').Agent;
  /** The payment gateway (Razorpay, or its test double outside production); none: cash on delivery only. */
  payments?: PaymentGateway;
  /** Set when the process begins to stop: readiness (/healthz) fails so the balancer stops sending it work. */
  lifecycle: { draining: boolean };
  /** Twilio Verify and Messaging (or their test double outside production); none: e-mail sign-in only. */
  sms?: SmsProvider;
}

export interface AppCustomContext {
  deps: AppDeps;
}

export type AppContext = ParameterizedContext<AppState, AppCustomContext>;
export type AppRouter = Router<AppState, AppCustomContext>;

/** A feature area registers its routes (and optional background jobs) here; app.ts lists the features. */
export type Feature = (router: AppRouter, ctx: { deps: AppDeps; background: BackgroundTasks }) => void;
