import { options, type VNode } from 'preact';

/**
 * React's order of work, kept under Preact (which renders React's API in the browser: docs/architecture.md):
 * the effects (`useEffect`) of a commit run before the next render starts. Preact runs them after the next
 * paint even when a state update (one set by a ref during the commit, say) renders first, and libraries
 * written for React rely on the order: a Radix slider's thumb finds its index among the items its collection
 * registers in effects, and without them it hid itself. Effects still wait for the paint when nothing renders
 * in between.
 *
 * `__b` and `__c` are Preact's hooks before each diff and after each commit (the names its own hooks and
 * signals use; the version is pinned in package.json).
 */
interface PreactInternals {
  __b?: (vnode: VNode) => void;
  __c?: (root: VNode, queue: unknown[]) => void;
}

const internals = options as typeof options & PreactInternals;
/** Preact's flush of the effects waiting for a paint, while some wait. */
let pending: (() => void) | undefined;
let committed = false;

function flushPending() {
  const flush = pending;
  pending = undefined;
  flush?.();
}

/** Preact's own schedule for effects: after the next frame, or 35 ms when no frame comes (a hidden tab). */
function afterNextFrame(callback: () => void) {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timeout);
    cancelAnimationFrame(frame);
    setTimeout(callback);
  };
  const timeout = setTimeout(run, 35);
  const frame = requestAnimationFrame(run);
}

options.requestAnimationFrame = (flush) => {
  pending = flush;
  afterNextFrame(flushPending);
};

const afterCommit = internals.__c;
internals.__c = (root, queue) => {
  committed = true;
  afterCommit?.(root, queue);
};

const beforeDiff = internals.__b;
internals.__b = (vnode) => {
  // The first diff after a commit starts the next render: the commit's effects run first.
  if (committed) {
    committed = false;
    flushPending();
  }
  beforeDiff?.(vnode);
};
