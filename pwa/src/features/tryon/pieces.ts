import type { TryOnKind } from './geometry';

/**
 * A drawn front view of each kind of piece (SVG, transparent around it), used when a product carries no
 * try-on image of its own. Pure strings: the renderer turns them into images without any request. The size
 * of the drawing does not matter: the geometry scales it to the piece's millimetres.
 */
const GOLD = '#d4a017';
const GOLD_DARK = '#8a6a0a';
const STONE = '#b0123a';

const SVG: Record<TryOnKind, string> = {
  // A jhumka: a stud, a short link and a bell with a fringe of beads. Held at the top of the stud.
  earrings: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 90" width="40" height="90">
<circle cx="20" cy="7" r="6" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="1.5"/>
<circle cx="20" cy="7" r="2.5" fill="${STONE}"/>
<rect x="18.5" y="13" width="3" height="14" fill="${GOLD}"/>
<path d="M4 62 Q4 30 20 27 Q36 30 36 62 Z" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="1.5"/>
<path d="M8 52 H32" stroke="${GOLD_DARK}" stroke-width="1.5"/>
${[6, 12, 18, 24, 30].map((x) => `<circle cx="${x + 2}" cy="68" r="3" fill="${GOLD}" stroke="${GOLD_DARK}"/>`).join('')}
${[9, 16, 23, 30].map((x) => `<circle cx="${x + 1}" cy="78" r="2.5" fill="${STONE}"/>`).join('')}
</svg>`,
  // A nose pin: a small gold flower round a stone. Held at its centre.
  nose_pin: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20" width="20" height="20">
${[0, 60, 120, 180, 240, 300].map((a) => `<circle cx="${10 + 5.5 * Math.cos((a * Math.PI) / 180)}" cy="${10 + 5.5 * Math.sin((a * Math.PI) / 180)}" r="3.2" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="0.6"/>`).join('')}
<circle cx="10" cy="10" r="3.4" fill="#f4f4ff" stroke="${GOLD_DARK}" stroke-width="0.6"/>
</svg>`,
  // A necklace: a U of gold beads with a centre drop. Held at the middle of its top edge.
  necklace: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 170" width="200" height="170">
<path d="M10 8 Q100 190 190 8" fill="none" stroke="${GOLD}" stroke-width="9" stroke-linecap="round"/>
<path d="M10 8 Q100 190 190 8" fill="none" stroke="${GOLD_DARK}" stroke-width="2" stroke-dasharray="2 7"/>
<path d="M88 96 Q100 150 112 96 Z" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="2"/>
<circle cx="100" cy="112" r="7" fill="${STONE}"/>
</svg>`,
  // A pendant on its bale. Held at the bale's top (the chain is drawn by the renderer).
  pendant: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 60" width="40" height="60">
<rect x="16" y="0" width="8" height="8" rx="3" fill="${GOLD}" stroke="${GOLD_DARK}"/>
<path d="M20 8 L36 28 L20 58 L4 28 Z" fill="${GOLD}" stroke="${GOLD_DARK}" stroke-width="1.5"/>
<circle cx="20" cy="30" r="7" fill="${STONE}" stroke="${GOLD_DARK}"/>
</svg>`,
};

/** The drawn piece of a kind as an SVG document. */
export function pieceSvg(kind: TryOnKind): string {
  return SVG[kind];
}

/** The same as a data: URL an <img> can load with no request (allowed by the app's img-src). */
export function pieceDataUrl(kind: TryOnKind): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG[kind])}`;
}
