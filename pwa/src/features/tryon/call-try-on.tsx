import { Sparkles } from 'lucide-react';
import {
  createContext,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { LocaleGate } from '../../lib/locale-gate';
import type { TryOnImage } from '../../../../api/contract/catalog';
import { tryOnKind } from './geometry';
import { createTryOnMachine, statusMessage, type TryOnMachine, type TryOnState } from './status';

/** What the call lends the try-on: its camera and a way to change the video it sends. */
export interface CallVideoSwap {
  camera: MediaStream | null;
  /** Sends this track instead of the camera's; null: the camera again. False when it cannot be swapped. */
  replace: (track: MediaStreamTrack | null) => Promise<boolean>;
}

interface Running {
  productId: number;
  stop: () => void;
}

interface CallTryOnValue {
  active: number | null;
  pending: number | null;
  /** The try-on's status (loading with progress, look at the camera, drawing, face lost) and its product. */
  status: { productId: number; state: TryOnState; machine: TryOnMachine } | null;
  toggle: (product: TryOnProduct) => Promise<void>;
}

const CallTryOnContext = createContext<CallTryOnValue | null>(null);

/** What a piece shown in the call gives the try-on. */
export interface TryOnProduct {
  id: number;
  name: string;
  category: string;
  width: number | null;
  height: number | null;
  /** The material and purity, for the colour of a drawn piece and a pendant's chain. */
  material?: string;
  purity?: string | null;
  /** The piece's own try-on image, drawn instead of a piece of its kind. */
  tryOnImage?: TryOnImage | null;
}

/**
 * Around the customer's side of a call: at most one piece tried on at a time. While one is, the call sends the
 * composited canvas instead of the camera (the jeweller sees the piece on the customer); stopping, or the call
 * ending, sends the camera again and ends the drawing.
 */
export function CallTryOnProvider({ swap, children }: { swap: CallVideoSwap; children: ReactNode }) {
  const { t } = useTranslation();
  const running = useRef<Running | null>(null);
  const [active, setActive] = useState<number | null>(null);
  const [pending, setPending] = useState<number | null>(null);
  const [status, setStatus] = useState<CallTryOnValue['status']>(null);
  const swapRef = useRef(swap);
  useEffect(() => {
    swapRef.current = swap;
  });

  const stop = useCallback(async () => {
    const r = running.current;
    running.current = null;
    setActive(null);
    setStatus(null);
    if (!r) return;
    await swapRef.current.replace(null).catch(() => false);
    r.stop();
  }, []);

  const toggle = useCallback(
    async (product: TryOnProduct) => {
      const kind = tryOnKind(product.category);
      const wasThis = running.current?.productId === product.id;
      await stop();
      if (wasThis || !kind) return;
      const camera = swapRef.current.camera;
      const cameraTrack = camera?.getVideoTracks()[0];
      if (!cameraTrack || cameraTrack.readyState !== 'live') {
        toast.error(t('catalog.tryOn.noCamera'));
        return;
      }
      setPending(product.id);
      // The same status as the dialog's (status.ts), shown under the button: the model's download with its
      // progress (after asking on a phone that saves data), then "Look at the camera", the face lost.
      const machine = createTryOnMachine();
      const off = machine.subscribe((state) => setStatus({ productId: product.id, state, machine }));
      setStatus({ productId: product.id, state: machine.state, machine });
      let detectorClose: (() => void) | null = null;
      try {
        const [{ loadFaceModel }, { startTryOn }, { productPiece }] = await Promise.all([
          import('./model-load'),
          import('./engine'),
          import('./piece-image'),
        ]);
        const loading: Running = {
          productId: product.id,
          stop: () => {
            off();
            detectorClose?.();
          },
        };
        running.current = loading;
        const [detector, piece] = await Promise.all([loadFaceModel(machine), productPiece(kind, product)]);
        detectorClose = detector.close;
        // Stopped (or started again) while the model loaded: this start is over.
        if (running.current !== loading) {
          off();
          detector.close();
          return;
        }
        const engine = startTryOn({
          camera: new MediaStream([cameraTrack]),
          detector,
          piece,
          machine,
        });
        const track = engine.captureTrack();
        running.current = {
          productId: product.id,
          stop: () => {
            off();
            engine.stop();
            detector.close();
            track.stop();
          },
        };
        if (!(await swapRef.current.replace(track))) {
          await stop();
          toast.error(t('catalog.tryOn.modelFailed'));
          return;
        }
        setActive(product.id);
        toast.success(t('catalog.tryOn.inCallOn', { name: product.name }));
      } catch {
        if (running.current?.productId === product.id) await stop();
        else off();
        toast.error(t('catalog.tryOn.modelFailed'));
      } finally {
        setPending(null);
      }
    },
    [stop, t],
  );

  useEffect(
    () => () => {
      running.current?.stop();
      running.current = null;
    },
    [],
  );
  const value = useMemo(() => ({ active, pending, status, toggle }), [active, pending, status, toggle]);
  return <CallTryOnContext.Provider value={value}>{children}</CallTryOnContext.Provider>;
}

function TryOnToggle({ product, value }: { product: TryOnProduct; value: CallTryOnValue }) {
  const { t } = useTranslation();
  const on = value.active === product.id;
  const status = value.status?.productId === product.id ? value.status : null;
  const said = status ? statusMessage(status.state) : null;
  return (
    <>
      <Button
        size="sm"
        variant={on ? 'primary' : 'outline'}
        aria-pressed={on}
        loading={value.pending === product.id && status?.state.phase !== 'ask'}
        onClick={() => void value.toggle(product)}
        className="min-w-0 px-2"
      >
        <Sparkles aria-hidden="true" className="h-4 w-4 shrink-0" />
        <span className="truncate">{on ? t('catalog.tryOn.inCallStop') : t('catalog.tryOn.inCall')}</span>
      </Button>
      {status?.state.phase === 'ask' && (
        <Button
          size="sm"
          onClick={() => status.machine.dispatch({ type: 'continue' })}
          className="min-w-0 px-2"
        >
          <span className="truncate">{t('catalog.tryOn.continue')}</span>
        </Button>
      )}
      <p
        role="status"
        aria-live="polite"
        data-testid="call-try-on-status"
        data-phase={status?.state.phase ?? ''}
        className={said ? 'w-full text-xs leading-snug text-white [overflow-wrap:anywhere]' : 'sr-only'}
      >
        {said ? t(said.key, said.values) : null}
      </p>
    </>
  );
}

/** "Try on" on a piece shown in the call (customer side, earrings, nose pins, necklaces and pendants). */
export function CallTryOnButton({ product }: { product: TryOnProduct }) {
  const value = useContext(CallTryOnContext);
  if (!value || !tryOnKind(product.category)) return null;
  return (
    <Suspense fallback={null}>
      <LocaleGate areas={['catalogTryOn']}>
        <TryOnToggle product={product} value={value} />
      </LocaleGate>
    </Suspense>
  );
}
