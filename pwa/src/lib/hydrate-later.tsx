import { options, type VNode } from 'preact';
import { Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Hydration in parts, as the reader reaches them. Preact hydrates a page in one task, which a phone's CPU turns
 * into a long one (a marketplace page: about 400 ms at a quarter of this machine's speed). A part wrapped in
 * `HydrateLater` keeps the server's markup as it is (its links and forms work, lib/pre-hydration.ts) and is
 * hydrated in a task of its own when it comes near the screen, or at once when the reader touches, clicks or
 * focuses something in it (the app then handles that very click: the part hydrates in the microtasks after the
 * pointer goes down, before the click). Parts the reader never reaches cost nothing.
 *
 * A part whose server markup is all it shows until it is used (text, links, a price table: nothing that moves or
 * updates by itself) is marked `until="used"`: it is hydrated only by input, never by sight, so a page's first
 * seconds hydrate only what has to run (a carousel, the header). It looks the same either way; its links work as
 * the server rendered them, and the first touch, click, hover or focus hydrates it before the click lands.
 *
 * The server renders each part once suspended, so its markup is enclosed in Preact's range markers
 * (`<!--$s-->…<!--/$s-->`) and the browser keeps the whole range while the part waits, whatever its elements.
 * Parts rendered after the first hydration (a page opened in the app) render at once.
 *
 * A part is hydrated under the state it was rendered in: hydration adopts the server's attributes as they are
 * and corrects only text. A part still waiting when the language changes is therefore rendered afresh instead.
 *
 * Preact's internals used (the version is pinned in package.json, as for lib/effect-order.ts): `options.__e`,
 * the hook every thrown value passes through (the Suspense of preact/compat listens there too), and a vnode's
 * `__e`, its first DOM node: for a part suspended while hydrating, the opening marker of its range.
 */
const SERVER = typeof window === 'undefined';

interface Part {
  promise: Promise<void>;
  resolve: () => void;
  /** Handed to Preact to render (or given up for a fresh render): nothing waits for it any more. */
  settled: boolean;
  /** The top-level elements of the part's server markup, watched for sight and input. */
  elements: Element[];
  /** Hydrated when it comes into sight too, not only by input. */
  bySight: boolean;
}

/** The first hydration's synchronous pass (src/boot.tsx). */
let hydrating = false;
/** Parts rendering their server markup now: parts met inside them wait too. */
let resuming = 0;
const waiting = new Map<Promise<void>, Part>();
const queue: Part[] = [];
let pumping = false;
let observer: IntersectionObserver | undefined;
const partOfElement = new WeakMap<Element, Part>();
/**
 * What hydrates a waiting part at once. A change made before (a sort chosen, a language picked, text typed) is
 * adopted by the field's component as it mounts (lib/pre-hydration.ts).
 */
const INPUT_EVENTS = [
  'pointerdown',
  'touchstart',
  'mouseover',
  'focusin',
  'keydown',
  'input',
  'change',
] as const;

/**
 * Input reaches waiting parts through one listener per event type on the document, in the capture phase (before
 * any handler of the page's own): a part is found from the event's target up. Listeners on every part's elements
 * cost a page with twenty cards some hundred and fifty registrations while it hydrates.
 */
function listenForInput() {
  const onInput = (event: Event) => {
    for (let node = event.target as Node | null; node; node = node.parentNode) {
      const part = partOfElement.get(node as Element);
      if (part) hydrateNow(part);
    }
  };
  for (const type of INPUT_EVENTS) document.addEventListener(type, onInput, { capture: true, passive: true });
}

/** Marks the first hydration of a server-rendered page (src/boot.tsx): parts met meanwhile wait. */
export function hydrationStarts(): () => void {
  hydrating = true;
  return () => {
    hydrating = false;
  };
}

function newPart(bySight: boolean): Part {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  const part: Part = {
    promise,
    resolve,
    settled: false,
    elements: [],
    bySight,
  };
  waiting.set(promise, part);
  return part;
}

function release(part: Part) {
  part.settled = true;
  waiting.delete(part.promise);
  for (const el of part.elements) {
    observer?.unobserve(el);
    partOfElement.delete(el);
  }
  part.elements = [];
}

/** Parts given up for a render from scratch (the language changed while they waited). */
const afresh = new WeakSet<Part>();

function renderAfresh(part: Part) {
  release(part);
  afresh.add(part);
}

/** Hydrates the part in the microtasks that follow (Preact renders a resolved suspension then). */
function hydrateNow(part: Part) {
  if (part.settled) return;
  release(part);
  resuming++;
  setTimeout(() => resuming--, 0);
  part.resolve();
}

/** Parts that came into sight hydrate one per task, in the order they were seen. */
function enqueue(part: Part) {
  if (part.settled || queue.includes(part)) return;
  queue.push(part);
  if (pumping) return;
  pumping = true;
  const step = () => {
    let next: Part | undefined;
    while ((next = queue.shift()) && next.settled);
    if (!next) {
      pumping = false;
      return;
    }
    hydrateNow(next);
    setTimeout(step, 0);
  };
  setTimeout(step, 0);
}

function sightObserver(): IntersectionObserver | undefined {
  if (!observer && typeof IntersectionObserver === 'function')
    observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const part = entry.isIntersecting ? partOfElement.get(entry.target) : undefined;
          if (part) enqueue(part);
        }
      },
      { rootMargin: '64px 0px' },
    );
  return observer;
}

/** The part suspended with its server markup starting at `start`: it waits for sight or input. */
function watch(part: Part, start: Node | null | undefined) {
  const elements: Element[] = [];
  if (start?.nodeType === Node.COMMENT_NODE && (start as Comment).data.startsWith('$s')) {
    for (let node = start.nextSibling, depth = 1; node; node = node.nextSibling) {
      if (node.nodeType === Node.COMMENT_NODE) {
        const data = (node as Comment).data;
        if (data.startsWith('$s')) depth++;
        else if (data.startsWith('/$s') && !--depth) break;
      } else if (node.nodeType === Node.ELEMENT_NODE) elements.push(node as Element);
    }
  }
  const sight = part.bySight ? sightObserver() : undefined;
  const focused = document.activeElement;
  if (!elements.length || (part.bySight && !sight)) {
    // Nothing of the server's to keep (or no way to watch it): the part follows in its own task.
    enqueue(part);
    return;
  }
  if (focused && elements.some((el) => el.contains(focused))) {
    // The reader is already in it (typing in a search box, say).
    hydrateNow(part);
    return;
  }
  part.elements = elements;
  for (const el of elements) {
    partOfElement.set(el, part);
    sight?.observe(el);
  }
}

if (!SERVER) {
  listenForInput();
  const internals = options as typeof options & {
    __e?: (error: unknown, vnode: VNode & { __e?: Node | null }, ...rest: unknown[]) => void;
  };
  const next = internals.__e;
  internals.__e = (error, vnode, ...rest) => {
    const part = error instanceof Promise ? waiting.get(error) : undefined;
    // Preact has set the vnode's DOM to the range it keeps by now; the Suspense above learns of the
    // suspension next (it subscribes to the promise before the part can settle).
    if (part && !part.settled && !part.elements.length) watch(part, vnode.__e);
    next?.(error, vnode, ...rest);
  };
}

// The server suspends each part once: the vnode's props are the same object on the retry.
const renderedOnServer = new WeakSet<object>();

function Slice(props: { part: Part | null; children: ReactNode }) {
  if (SERVER) {
    if (!renderedOnServer.has(props)) {
      renderedOnServer.add(props);
      throw Promise.resolve();
    }
  } else if (props.part && !props.part.settled) {
    throw props.part.promise;
  }
  return props.children;
}

export function HydrateLater({
  children,
  until = 'seen',
}: {
  children: ReactNode;
  /** 'seen': hydrated as it nears the screen or is used; 'used': only when used (see above). */
  until?: 'seen' | 'used';
}) {
  const { i18n } = useTranslation();
  const [part] = useState(() => (!SERVER && (hydrating || resuming > 0) ? newPart(until === 'seen') : null));
  // The language the server's markup is in; a part still waiting when it changes is rendered afresh (its
  // Suspense remounts under a new key, which removes the server's range).
  const [language] = useState(() => i18n.language);
  if (part && !part.settled && i18n.language !== language) renderAfresh(part);
  const fresh = part !== null && afresh.has(part);
  return (
    <Suspense key={fresh ? 'fresh' : 'server'} fallback={null}>
      <Slice part={fresh ? null : part}>{children}</Slice>
    </Suspense>
  );
}
