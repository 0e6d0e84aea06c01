import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { ParameterizedContext } from 'koa';
import type Router from '@koa/router';
import type { UserRole } from '../../contract/constants';
import type { Config } from '../config';

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

/** What every handler can reach through ctx: the database, configuration, clock and logger. */
export interface AppDeps {
  db: Knex;
  dbKind: 'pglite' | 'pg';
  config: Config;
  clock: Clock;
  logger: Logger;
}

export interface AppCustomContext {
  deps: AppDeps;
}

export type AppContext = ParameterizedContext<AppState, AppCustomContext>;
export type AppRouter = Router<AppState, AppCustomContext>;
