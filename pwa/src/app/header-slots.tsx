import { createContext, startTransition, useCallback, useContext, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * Places in the header that features fill: the 'In Call' indicator (calls), the cart button (cart, customers
 * only: the header offers the slot only to customers) and extra actions (e.g. an install button); and `notices`,
 * just under the header in the page's flow, for a notice that must cover nothing (e.g. the seller's call
 * notifications prompt).
 */
export type HeaderSlotName = 'inCall' | 'cart' | 'actions' | 'notices';

type Targets = Partial<Record<HeaderSlotName, HTMLElement | null>>;
interface SlotsContextValue {
  targets: Targets;
  register: (name: HeaderSlotName, el: HTMLElement | null) => void;
}

const SlotsContext = createContext<SlotsContextValue | null>(null);

export function HeaderSlotsProvider({ children }: { children: ReactNode }) {
  const [targets, setTargets] = useState<Targets>({});
  const [value] = useState<Omit<SlotsContextValue, 'targets'>>(() => ({
    // Outlets register from their ref callbacks, during a commit. As a transition, the update never makes
    // React finish hydrating a server-rendered page in one synchronous task (src/boot.tsx).
    register: (name, el) =>
      startTransition(() => setTargets((prev) => (prev[name] === el ? prev : { ...prev, [name]: el }))),
  }));
  return <SlotsContext.Provider value={{ targets, ...value }}>{children}</SlotsContext.Provider>;
}

function useSlots(): SlotsContextValue {
  const ctx = useContext(SlotsContext);
  if (!ctx) throw new Error('Header slots are used outside HeaderSlotsProvider');
  return ctx;
}

/** Where the header shows a slot's content; renders nothing visible until a feature fills it. */
export function HeaderSlotOutlet({ name, className }: { name: HeaderSlotName; className?: string }) {
  const { register } = useSlots();
  // A stable callback ref: a new function each render would unregister and register on every render.
  const ref = useCallback((el: HTMLDivElement | null) => register(name, el), [register, name]);
  return <div ref={ref} className={className ?? 'contents'} data-header-slot={name} />;
}

/**
 * Renders `children` into a header slot from anywhere below the app providers, keeping the feature's own
 * React context (e.g. `<HeaderSlot name="inCall"><InCallIndicator /></HeaderSlot>` inside the call provider).
 */
export function HeaderSlot({ name, children }: { name: HeaderSlotName; children: ReactNode }) {
  const { targets } = useSlots();
  const target = targets[name];
  return target ? createPortal(children, target) : null;
}
