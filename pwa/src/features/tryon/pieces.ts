import { METAL_SHADES, type MetalTone } from '../../../../api/contract/piece-look';
import type { TryOnKind } from './geometry';

/**
 * A drawn front view of each kind of piece (SVG, transparent around it), used when a product carries no
 * try-on image of its own. Pure strings: the renderer turns them into images without any request. The size
 * of the drawing does not matter: the geometry scales it to the piece's millimetres.
 */
const STONE = '#b0123a';

/** The drawn pieces in a metal's colours (its middle shade fills, its dark shade outlines). */
function svgs(tone: MetalTone): Record<TryOnKind, string> {
  const [, METAL, METAL_DARK] = METAL_SHADES[tone];
  return {
    // A jhumka: a stud, a short link and a bell with a fringe of beads. Held at the top of the stud.
    earrings: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 90" width="40" height="90">
<circle cx="20" cy="7" r="6" fill="${METAL}" stroke="${METAL_DARK}" stroke-width="1.5"/>
<circle cx="20" cy="7" r="2.5" fill="${STONE}"/>
<rect x="18.5" y="13" width="3" height="14" fill="${METAL}"/>
<path d="M4 62 Q4 30 20 27 Q36 30 36 62 Z" fill="${METAL}" stroke="${METAL_DARK}" stroke-width="1.5"/>
<path d="M8 52 H32" stroke="${METAL_DARK}" stroke-width="1.5"/>
${[6, 12, 18, 24, 30].map((x) => `<circle cx="${x + 2}" cy="68" r="3" fill="${METAL}" stroke="${METAL_DARK}"/>`).join('')}
${[9, 16, 23, 30].map((x) => `<circle cx="${x + 1}" cy="78" r="2.5" fill="${STONE}"/>`).join('')}
</svg>`,
    // A nose pin: a small gold flower round a stone. Held at its centre.
    nose_pin: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" height="20">
${[0, 60, 120, 180, 240, 300].map((a) => `<circle cx="${10 + 5.5 * Math.cos((a * Math.PI) / 180)}" cy="${10 + 5.5 * Math.sin((a * Math.PI) / 180)}" r="3.2" fill="${METAL}" stroke="${METAL_DARK}" stroke-width="0.6"/>`).join('')}
<circle cx="10" cy="10" r="3.4" fill="#f4f4ff" stroke="${METAL_DARK}" stroke-width="0.6"/>
</svg>`,
    // A necklace: a U of gold beads with a centre drop. Held at the middle of its top edge.
    necklace: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 170" width="200" height="170">
<path d="M10 8 Q100 190 190 8" fill="none" stroke="${METAL}" stroke-width="9" stroke-linecap="round"/>
<path d="M10 8 Q100 190 190 8" fill="none" stroke="${METAL_DARK}" stroke-width="2" stroke-dasharray="2 7"/>
<path d="M88 96 Q100 150 112 96 Z" fill="${METAL}" stroke="${METAL_DARK}" stroke-width="2"/>
<circle cx="100" cy="112" r="7" fill="${STONE}"/>
</svg>`,
    // A pendant on its bale. Held at the bale's top (the chain is drawn by the renderer).
    pendant: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 60" width="40" height="60">
<rect x="16" y="0" width="8" height="8" rx="3" fill="${METAL}" stroke="${METAL_DARK}"/>
<path d="M20 8 L36 28 L20 58 L4 28 Z" fill="${METAL}" stroke="${METAL_DARK}" stroke-width="1.5"/>
<circle cx="20" cy="30" r="7" fill="${STONE}" stroke="${METAL_DARK}"/>
</svg>`,
  };
}

const SVG = Object.fromEntries(
  (Object.keys(METAL_SHADES) as MetalTone[]).map((tone) => [tone, svgs(tone)]),
) as Record<MetalTone, Record<TryOnKind, string>>;

/** The drawn piece of a kind, in a metal's colours (gold unless told), as an SVG document. */
export function pieceSvg(kind: TryOnKind, tone: MetalTone = 'gold'): string {
  return SVG[tone][kind];
}

/** The same as a data: URL an <img> can load with no request (allowed by the app's img-src). */
export function pieceDataUrl(kind: TryOnKind, tone: MetalTone = 'gold'): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG[tone][kind])}`;
}
