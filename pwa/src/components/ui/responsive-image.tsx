import { useCallback, useState, type ImgHTMLAttributes } from 'react';
import { mediaSrcSets, type MediaWidth } from '../../../../api/contract/media';

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'placeholder'> & {
  src: string;
  /** Which width the image takes on screen, for the browser's choice from the srcset. */
  sizes: string;
  /** The widest width worth offering (a 64 px thumbnail never needs 1200). */
  maxWidth?: MediaWidth;
  /** A tiny blurred preview (data: URI) painted behind the image until it has loaded. */
  placeholder?: string | null;
};

/**
 * An image for slow links (docs/product-rules.md "Images"): AVIF and WebP at the widths the server derives
 * (contract/media.ts), so a phone downloads the width it shows; width and height are the caller's, so nothing
 * shifts; the blurred preview shows until the image has loaded. Images not stored by us render as a plain img.
 */
export function ResponsiveImage({ src, sizes, maxWidth = 1200, placeholder, style, onLoad, ...img }: Props) {
  const [loaded, setLoaded] = useState(false);
  // An image the server-rendered page had already loaded before hydration fires no load event for React.
  const ref = useCallback((el: HTMLImageElement | null) => {
    if (el?.complete && el.naturalWidth > 0) setLoaded(true);
  }, []);
  const sets = mediaSrcSets(src, maxWidth);
  const element = (
    <img
      {...img}
      ref={ref}
      src={src}
      sizes={sets ? sizes : undefined}
      srcSet={sets?.webp}
      onLoad={(e) => {
        setLoaded(true);
        onLoad?.(e);
      }}
      style={
        placeholder && !loaded
          ? { ...style, backgroundImage: `url("${placeholder}")`, backgroundSize: 'cover' }
          : style
      }
    />
  );
  if (!sets) return element;
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={sets.avif} sizes={sizes} />
      {element}
    </picture>
  );
}
