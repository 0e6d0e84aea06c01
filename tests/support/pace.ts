/**
 * The machine's pace: how many times slower than the reference machine this one runs the suite, so that the
 * time bounds of the tests (a test's timeout, a wait, "rejoins within 5 s") mean the same on a slower machine.
 *
 * The bounds are written for the reference machine: 2 cores on which the whole `npm test` took 875 s of
 * vitest. The pace is measured once, in the main vitest process before any worker starts
 * (`measurePace()` in vitest.config.ts), by timing a fixed piece of JavaScript work (objects, JSON, strings,
 * sorting) and dividing by the same work's time on the reference machine; workers read it from `TEST_PACE`.
 * It is never below 1 (a faster machine keeps the written bounds) and at most MAX_PACE (a machine slower than
 * that fails, as it should: it is not one the product is meant for). `TEST_PACE=1` keeps the written bounds.
 *
 * A bound scaled by the pace still fails when the thing never happens or happens far too late; the product's
 * own speed targets are proven by the benchmarks under tests/bench, measured against a baseline in one run.
 */

/**
 * The calibration work's best time (ms, of 7 runs) on the reference machine. Derived, as that machine is not
 * at hand: a machine that measured 22 ms ran the whole suite in 1,553 s of vitest, 1.78× the reference's 875 s.
 */
export const REFERENCE_CALIBRATION_MS = 12.4;
export const MAX_PACE = 4;

function calibrationWork(): number {
  let acc = 0;
  for (let r = 0; r < 40; r++) {
    const rows: { id: number; name: string; paise: number; tags: string[] }[] = [];
    for (let i = 0; i < 500; i++) {
      rows.push({
        id: i,
        name: `piece ${i} ${r}`,
        paise: i * 1234 + r,
        tags: ['gold', 'ring', String(i % 7)],
      });
    }
    const text = JSON.stringify(rows);
    const back = JSON.parse(text) as typeof rows;
    acc += back.filter((x) => x.tags[2] === '3').reduce((s, x) => s + x.paise, 0) % 1000;
    acc += text.replace(/piece/g, 'item').length;
    rows.sort((a, b) => (a.name < b.name ? -1 : 1));
  }
  return acc;
}

/** The best of 7 timings of the calibration work, in ms. */
export function calibrationMs(): number {
  let best = Infinity;
  for (let i = 0; i < 7; i++) {
    const t = process.hrtime.bigint();
    calibrationWork();
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6);
  }
  return best;
}

/** Measures the pace unless TEST_PACE is already set, and sets it for the workers. */
export function measurePace(): number {
  const given = Number(process.env.TEST_PACE);
  if (Number.isFinite(given) && given > 0) return given;
  const ms = calibrationMs();
  const pace = Math.min(MAX_PACE, Math.max(1, Math.round((ms / REFERENCE_CALIBRATION_MS) * 10) / 10));
  process.env.TEST_PACE = String(pace);
  process.env.TEST_PACE_CALIBRATION_MS = ms.toFixed(1);
  return pace;
}

/** This run's pace (1 when unset). */
export const PACE = (() => {
  const n = Number(process.env.TEST_PACE);
  return Number.isFinite(n) && n >= 1 ? n : 1;
})();

/** A time bound written for the reference machine, on this one. */
export const paced = (ms: number): number => Math.round(ms * PACE);
