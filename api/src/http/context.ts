import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { UserRole } from '../../contract/constants';
import type { Config } from '../config';
import type { ResponseCache } from './response-cache';

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
}

/** In-process announcements between feature areas (each process announces what it handled). */
export interface AppHooks {
  incomingCall: ((event: IncomingCallEvent) => void)[];
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
  /** An https.Agent for outgoing web push requests (tests pass one that trusts a local receiver). */
  pushAgent?: import('node:https').Agent;
}

export interface AppCustomContext {
  deps: AppDeps;
}

export type AppContext = ParameterizedContext<AppState, AppCustomContext>;
export type AppRouter = Router<AppState, AppCustomContext>;
