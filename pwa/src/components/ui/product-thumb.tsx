import { ResponsiveImage } from './responsive-image';
import { Gem } from 'lucide-react';

const SIZES = {
  sm: { box: 'h-12 w-12', icon: 'h-5 w-5', px: '48px' },
  md: { box: 'h-14 w-14', icon: 'h-6 w-6', px: '56px' },
  lg: { box: 'h-20 w-20', icon: 'h-8 w-8', px: '80px' },
} as const;

/**
 * A product's square thumbnail in a list line (cart, checkout summary, order items): its image, or a gem
 * placeholder when it has none. Decorative: the line names the product beside it.
 */
export function ProductThumb({
  src,
  size,
  lazy = false,
}: {
  src: string | null | undefined;
  size: keyof typeof SIZES;
  lazy?: boolean;
}) {
  const { box, icon } = SIZES[size];
  return src ? (
    <ResponsiveImage
      src={src}
      alt=""
      sizes={SIZES[size].px}
      maxWidth={240}
      width={80}
      height={80}
      loading={lazy ? 'lazy' : undefined}
      className={`${box} shrink-0 rounded-md border border-stone-200 object-cover`}
    />
  ) : (
    <div
      aria-hidden="true"
      className={`flex ${box} shrink-0 items-center justify-center rounded-md bg-brand-50 text-brand-700`}
    >
      <Gem className={icon} />
    </div>
  );
}
