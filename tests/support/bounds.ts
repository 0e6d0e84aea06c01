import { CALL_LIMITS } from '../../api/contract/constants';

/**
 * Time bounds shared by the tests. Every bound in the suite is a fixed figure, the same on every machine: none is
 * multiplied by a measured machine speed. They are of two kinds:
 *
 * - A give-up wait for something whose speed the test does not assert (a page loading, a service worker
 *   installing, a whole test): generous enough for a machine about 4× slower than a fast laptop (the suite runs
 *   on 2 shared cores, with a browser, a production server and its database busy on them). It only decides how
 *   long a broken test takes to fail.
 * - A bound on the product's own speed (a ring reaching the jeweller, the period of a poll, a timer the product
 *   sets): the product's figure plus a fixed slack, small enough that a broken product fails it. Those are
 *   written where they are asserted, each with what it bounds and why.
 */

/**
 * How long a browser action or wait gives up after unless it says otherwise (Playwright's own default is 30 s):
 * a page, its app and its data loading on a loaded 2-core machine.
 */
export const ACTION_TIMEOUT_MS = 45_000;

/**
 * How long a wait for the other person's video to start playing gives up after: the product's own connect
 * timeout (CALL_LIMITS.connectTimeoutMs, 30 s), past which the call has failed anyway. (The first frame's speed is
 * measured by bench:call-latency and bench:netlab, not bounded here.)
 */
export const REMOTE_VIDEO_TIMEOUT_MS: number = CALL_LIMITS.connectTimeoutMs;
