import { z } from 'zod';
import { ID_MAX } from './constants';

// Ids are PostgreSQL integers: anything above ID_MAX is refused here, not by the database.

/** A positive integer id in a JSON body (a number, never a string), with one message for every failure. */
export const positiveId = (message: string) =>
  z
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(ID_MAX, { error: message });

/** A positive integer id in a query string (coerced from its text), with one message for every failure. */
export const positiveIdFromQuery = (message: string) =>
  z.coerce
    .number({ error: message })
    .int({ error: message })
    .positive({ error: message })
    .max(ID_MAX, { error: message });
