import sharp from 'sharp';
import type { ProductCategory, ProductMaterial } from '../../contract/constants';
import { METAL_SHADES, metalTone } from '../../contract/piece-look';

/**
 * Product pictures drawn as SVG at seed time: each category has its own shape (a chain of links, a strand
 * of pearls, an anklet with bells, stacked bangles, jhumkas...) and each material its own colours.
 */

type Pair = [light: string, dark: string];

interface Palette {
  metal: [hi: string, mid: string, lo: string];
  bg: Pair;
  stones?: Pair[];
  pearl?: boolean;
  sparkle?: boolean;
  coins?: boolean;
}

const METALS = {
  gold: ['#fff3b0', '#e2b843', '#9c6d15'],
  antique: ['#f3d98a', '#c0902a', '#6e4a0e'],
  white: ['#ffffff', '#d9dde3', '#858c96'],
  silver: ['#ffffff', '#c9ced5', '#747b86'],
  copper: ['#ffd1b0', '#c8773f', '#6f3410'],
  brass: ['#fbf0a0', '#c5a935', '#76631a'],
} as const satisfies Record<string, Palette['metal']>;

const RUBY: Pair = ['#ff7080', '#8b0014'];
const EMERALD: Pair = ['#66e6a6', '#08602f'];
const SAPPHIRE: Pair = ['#8fb2ff', '#0c2580'];
const DIAMOND: Pair = ['#ffffff', '#b6cde6'];

export const PALETTES: Record<ProductMaterial, Palette> = {
  gold: { metal: [...METALS.gold], bg: ['#fff8ec', '#f0d9b5'] },
  silver: { metal: [...METALS.silver], bg: ['#f4f7fb', '#cfd9e6'] },
  platinum: { metal: [...METALS.white], bg: ['#f3f4f8', '#cdd2df'] },
  copper: { metal: [...METALS.copper], bg: ['#fff3ea', '#e8c8b2'] },
  brass: { metal: [...METALS.brass], bg: ['#fffbe8', '#e8dba6'] },
  artificial: {
    metal: [...METALS.gold],
    bg: ['#fdf0f5', '#e8cbd8'],
    stones: [
      ['#ff8fb5', '#b0124f'],
      ['#7fe3dc', '#1a7f78'],
      ['#ffffff', '#cfcfcf'],
    ],
  },
  diamond: { metal: [...METALS.white], bg: ['#eef3fa', '#c8d5e8'], stones: [DIAMOND], sparkle: true },
  emerald: { metal: [...METALS.gold], bg: ['#f0faf4', '#c8e4d3'], stones: [EMERALD] },
  ruby: { metal: [...METALS.gold], bg: ['#fff4f2', '#eccac3'], stones: [RUBY] },
  sapphire: { metal: [...METALS.white], bg: ['#f1f4fd', '#cad4f0'], stones: [SAPPHIRE], sparkle: true },
  pearl: { metal: [...METALS.gold], bg: ['#fbf7f1', '#e6dac8'], pearl: true },
  kundan: {
    metal: [...METALS.gold],
    bg: ['#fff7ea', '#ecd4b2'],
    stones: [['#ffffff', '#d6d0c0'], RUBY, EMERALD],
  },
  polki: {
    metal: [...METALS.gold],
    bg: ['#fbf6ec', '#e4d6bc'],
    stones: [
      ['#fbf8ee', '#cfc7b0'],
      ['#f1ede0', '#bdb59c'],
    ],
  },
  meenakari: {
    metal: [...METALS.gold],
    bg: ['#fdf6ee', '#e9d5c2'],
    stones: [
      ['#ff6b7d', '#a3142c'],
      ['#5fd6c8', '#11766b'],
      ['#7d95ff', '#22389e'],
    ],
  },
  temple_jewelry: {
    metal: [...METALS.antique],
    bg: ['#fdf3e3', '#e7cc9e'],
    stones: [RUBY, EMERALD],
    coins: true,
  },
};

const W = 640;
const f = (n: number) => n.toFixed(1);
const deg = (rad: number) => (rad * 180) / Math.PI;

class Svg {
  parts: string[] = [];
  private i = 0;
  constructor(readonly p: Palette) {}

  add(s: string) {
    this.parts.push(s);
  }

  /** One link of a chain; alternate links are seen edge-on, which is what makes it read as a chain. */
  link(x: number, y: number, angle: number, rx: number, ry: number, sw: number) {
    this.add(
      `<ellipse cx="${f(x)}" cy="${f(y)}" rx="${f(rx)}" ry="${f(ry)}" transform="rotate(${f(deg(angle))} ${f(x)} ${f(y)})" fill="none" stroke="url(#metal)" stroke-width="${f(sw)}"/>`,
    );
  }

  ball(x: number, y: number, r: number) {
    this.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="url(#ball)" stroke="${this.p.metal[2]}" stroke-width="${f(Math.max(0.6, r * 0.08))}"/>`,
    );
  }

  pearl(x: number, y: number, r: number) {
    this.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="url(#pearl)" stroke="#cfc4b0" stroke-width="${f(Math.max(0.5, r * 0.06))}"/>`,
    );
  }

  stone(x: number, y: number, r: number, which?: number) {
    const stones = this.p.stones ?? [];
    const k = (which ?? this.i++) % Math.max(1, stones.length);
    this.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 1.28)}" fill="url(#ball)"/>` +
        `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r)}" fill="url(#stone${k})" stroke="${this.p.metal[2]}" stroke-width="${f(r * 0.1)}"/>` +
        `<circle cx="${f(x - r * 0.35)}" cy="${f(y - r * 0.38)}" r="${f(r * 0.28)}" fill="#fff" opacity="0.75"/>`,
    );
    if (this.p.sparkle && r >= 9) this.sparkle(x + r * 0.7, y - r * 0.8, r * 0.9);
  }

  sparkle(x: number, y: number, s: number) {
    const t = s * 0.18;
    this.add(
      `<path d="M${f(x)} ${f(y - s)} L${f(x + t)} ${f(y - t)} L${f(x + s)} ${f(y)} L${f(x + t)} ${f(y + t)} L${f(x)} ${f(y + s)} L${f(x - t)} ${f(y + t)} L${f(x - s)} ${f(y)} L${f(x - t)} ${f(y - t)} Z" fill="#ffffff" opacity="0.95"/>`,
    );
  }

  coin(x: number, y: number, r: number) {
    this.ball(x, y, r);
    this.add(
      `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.7)}" fill="none" stroke="${this.p.metal[2]}" stroke-width="${f(r * 0.1)}"/>` +
        `<circle cx="${f(x)}" cy="${f(y)}" r="${f(r * 0.25)}" fill="${this.p.metal[2]}" opacity="0.7"/>`,
    );
  }

  /** The material's own accent: a pearl, a coloured stone, a coin or a plain metal bead. */
  accent(x: number, y: number, r: number, which?: number) {
    if (this.p.pearl) this.pearl(x, y, r);
    else if (this.p.stones) this.stone(x, y, r, which);
    else this.ball(x, y, r);
  }

  /** A small drop hanging from a point: pearl, bead or bell. */
  drop(x: number, y: number, len: number, r: number) {
    this.add(
      `<line x1="${f(x)}" y1="${f(y)}" x2="${f(x)}" y2="${f(y + len)}" stroke="${this.p.metal[1]}" stroke-width="${f(Math.max(1.2, r * 0.25))}"/>`,
    );
    if (this.p.pearl) this.pearl(x, y + len + r, r);
    else this.ball(x, y + len + r, r);
  }

  bell(x: number, y: number, r: number) {
    this.add(
      `<line x1="${f(x)}" y1="${f(y)}" x2="${f(x)}" y2="${f(y + r)}" stroke="${this.p.metal[1]}" stroke-width="2.2"/>`,
    );
    this.ball(x, y + r * 2, r);
    this.add(
      `<path d="M${f(x - r * 0.6)} ${f(y + r * 2.45)} Q${f(x)} ${f(y + r * 2.8)} ${f(x + r * 0.6)} ${f(y + r * 2.45)}" fill="none" stroke="${this.p.metal[2]}" stroke-width="${f(r * 0.22)}"/>`,
    );
  }

  toString() {
    return this.render([0, 0, W, W], true);
  }

  /** The drawing's SVG: the part in `box` (x, y, width, height), on the backdrop or on nothing. */
  render(box: [number, number, number, number], backdrop: boolean) {
    const [hi, mid, lo] = this.p.metal;
    const stones = (this.p.stones ?? [DIAMOND])
      .map(
        ([light, dark], k) =>
          `<radialGradient id="stone${k}" cx="40%" cy="35%" r="70%"><stop offset="0" stop-color="${light}"/><stop offset="0.55" stop-color="${dark}"/><stop offset="1" stop-color="${dark}" stop-opacity="0.9"/></radialGradient>`,
      )
      .join('');
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${box[2]}" height="${box[3]}" viewBox="${box.join(' ')}"><defs>` +
      `<radialGradient id="bg" cx="50%" cy="42%" r="75%"><stop offset="0" stop-color="${this.p.bg[0]}"/><stop offset="1" stop-color="${this.p.bg[1]}"/></radialGradient>` +
      `<linearGradient id="metal" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${hi}"/><stop offset="0.3" stop-color="${mid}"/><stop offset="0.55" stop-color="${lo}"/><stop offset="0.75" stop-color="${mid}"/><stop offset="0.9" stop-color="${hi}"/><stop offset="1" stop-color="${mid}"/></linearGradient>` +
      `<radialGradient id="ball" cx="35%" cy="30%" r="75%"><stop offset="0" stop-color="${hi}"/><stop offset="0.45" stop-color="${mid}"/><stop offset="1" stop-color="${lo}"/></radialGradient>` +
      `<radialGradient id="pearl" cx="35%" cy="30%" r="80%"><stop offset="0" stop-color="#ffffff"/><stop offset="0.5" stop-color="#f6efe2"/><stop offset="0.85" stop-color="#ddd0bb"/><stop offset="1" stop-color="#c9b9a0"/></radialGradient>` +
      `<radialGradient id="shadow" cx="50%" cy="50%" r="50%"><stop offset="0" stop-color="#000" stop-opacity="0.18"/><stop offset="1" stop-color="#000" stop-opacity="0"/></radialGradient>` +
      stones +
      `</defs>` +
      (backdrop
        ? `<rect width="${W}" height="${W}" fill="url(#bg)"/>` +
          `<ellipse cx="320" cy="560" rx="230" ry="34" fill="url(#shadow)"/>`
        : '') +
      this.parts.join('') +
      `</svg>`
    );
  }
}

type Pt = { x: number; y: number; a: number };

/** n points along a curve with the tangent angle at each. */
function along(n: number, fn: (t: number) => [number, number]): Pt[] {
  const pts: Pt[] = [];
  for (let i = 0; i < n; i++) {
    const t = n === 1 ? 0.5 : i / (n - 1);
    const [x, y] = fn(t);
    const [x2, y2] = fn(Math.min(1, t + 0.001));
    const [x1, y1] = fn(Math.max(0, t - 0.001));
    pts.push({ x, y, a: Math.atan2(y2 - y1, x2 - x1) });
  }
  return pts;
}

const arc =
  (cx: number, cy: number, rx: number, ry: number, from: number, to: number) =>
  (t: number): [number, number] => {
    const th = from + (to - from) * t;
    return [cx + rx * Math.cos(th), cy + ry * Math.sin(th)];
  };

function chainLinks(s: Svg, pts: Pt[], size: number) {
  pts.forEach((p, i) =>
    i % 2 === 0
      ? s.link(p.x, p.y, p.a, size, size * 0.6, size * 0.32)
      : s.link(p.x, p.y, p.a, size, size * 0.22, size * 0.32),
  );
}

function clasp(s: Svg, x: number, y: number) {
  s.link(x, y, Math.PI / 2, 10, 6, 3);
  s.ball(x, y - 12, 5);
}

function jhumka(s: Svg, x: number, y: number, k: number) {
  const sc = (n: number) => n * k;
  // stud with a ring of beads
  for (let i = 0; i < 8; i++) {
    const th = (i / 8) * Math.PI * 2;
    s.ball(x + Math.cos(th) * sc(30), y + Math.sin(th) * sc(30), sc(9));
  }
  s.accent(x, y, sc(22), 0);
  chainLinks(
    s,
    along(3, (t) => [x, y + sc(40) + t * sc(36)]),
    sc(9),
  );
  const y0 = y + sc(86);
  const y1 = y + sc(210);
  const w = sc(78);
  s.add(
    `<path d="M${f(x - sc(18))} ${f(y0)} C${f(x - sc(62))} ${f(y0 + sc(18))} ${f(x - w)} ${f(y1 - sc(52))} ${f(x - w)} ${f(y1)} L${f(x + w)} ${f(y1)} C${f(x + w)} ${f(y1 - sc(52))} ${f(x + sc(62))} ${f(y0 + sc(18))} ${f(x + sc(18))} ${f(y0)} Z" fill="url(#metal)" stroke="${s.p.metal[2]}" stroke-width="${f(sc(2))}"/>`,
  );
  for (const yy of [0.35, 0.6]) {
    const yl = y0 + (y1 - y0) * yy;
    const half = sc(24) + (w - sc(24)) * yy;
    s.add(
      `<path d="M${f(x - half)} ${f(yl)} Q${f(x)} ${f(yl + sc(10))} ${f(x + half)} ${f(yl)}" fill="none" stroke="${s.p.metal[2]}" stroke-width="${f(sc(2))}" opacity="0.7"/>`,
    );
  }
  for (let i = 0; i < 5; i++) s.accent(x - w * 0.7 + (i * w * 1.4) / 4, y1 - sc(14), sc(8), i);
  s.ball(x, y0 - sc(2), sc(12));
  for (let i = 0; i < 9; i++) s.drop(x - w + (i * 2 * w) / 8, y1, sc(10), sc(7));
}

type Drawer = (s: Svg) => void;

const DRAW: Record<ProductCategory, Drawer> = {
  chains(s) {
    chainLinks(s, along(52, arc(320, 120, 200, 390, 0.03 * Math.PI, 0.97 * Math.PI)), 14);
    clasp(s, 520, 132);
    clasp(s, 120, 132);
  },
  necklaces(s) {
    if (s.p.pearl) {
      for (const pt of along(44, arc(320, 100, 215, 400, 0.04 * Math.PI, 0.96 * Math.PI)))
        s.pearl(pt.x, pt.y, 14);
      for (const pt of along(36, arc(320, 100, 165, 320, 0.06 * Math.PI, 0.94 * Math.PI)))
        s.pearl(pt.x, pt.y, 12);
      s.stone(320, 438, 20, 0);
      return;
    }
    chainLinks(s, along(64, arc(320, 90, 205, 330, 0.03 * Math.PI, 0.97 * Math.PI)), 9);
    const low = along(11, arc(320, 90, 205, 330, 0.22 * Math.PI, 0.78 * Math.PI));
    low.forEach((pt, i) => {
      if (s.p.coins) s.coin(pt.x, pt.y + 22, 18);
      else {
        s.accent(pt.x, pt.y + 6, 14, i);
        s.drop(pt.x, pt.y + 20, 10, 6);
      }
    });
    s.ball(320, 440, 40);
    s.accent(320, 440, 24, 0);
    s.drop(320, 480, 8, 11);
  },
  pendants(s) {
    chainLinks(
      s,
      along(22, (t) => [190 + t * 120, 70 + t * 300]),
      8,
    );
    chainLinks(
      s,
      along(22, (t) => [450 - t * 120, 70 + t * 300]),
      8,
    );
    s.ball(320, 378, 12);
    s.add(
      `<path d="M320 392 C250 440 250 520 320 540 C390 520 390 440 320 392 Z" fill="url(#metal)" stroke="${s.p.metal[2]}" stroke-width="3"/>`,
    );
    if (s.p.coins) s.coin(320, 480, 34);
    else s.accent(320, 482, 32, 0);
  },
  bridal_sets(s) {
    const pts = along(15, arc(320, 110, 175, 190, 0.12 * Math.PI, 0.88 * Math.PI));
    pts.forEach((pt, i) => {
      s.ball(pt.x, pt.y, 19);
      s.accent(pt.x, pt.y, 12, i);
      s.drop(pt.x, pt.y + 18, 12, 8);
    });
    s.ball(320, 345, 42);
    s.accent(320, 345, 26, 0);
    s.drop(320, 387, 8, 12);
    jhumka(s, 100, 390, 0.55);
    jhumka(s, 540, 390, 0.55);
  },
  earrings(s) {
    jhumka(s, 205, 130, 1);
    jhumka(s, 435, 130, 1);
  },
  nose_pins(s) {
    s.add(`<rect x="311" y="330" width="18" height="180" rx="6" fill="url(#metal)"/>`);
    s.ball(320, 505, 16);
    for (let i = 0; i < 8; i++) {
      const th = (i / 8) * Math.PI * 2;
      const x = 320 + Math.cos(th) * 78;
      const y = 270 + Math.sin(th) * 78;
      s.ball(x, y, 40);
      s.accent(x, y, 24, i);
    }
    s.ball(320, 270, 54);
    s.accent(320, 270, 40, 0);
  },
  rings(s) {
    s.add(
      `<ellipse cx="320" cy="380" rx="160" ry="70" fill="none" stroke="url(#metal)" stroke-width="34"/>` +
        `<ellipse cx="320" cy="380" rx="160" ry="70" fill="none" stroke="${s.p.metal[2]}" stroke-width="2" opacity="0.6"/>`,
    );
    for (const dx of [-44, 44])
      s.add(`<path d="M${320 + dx} 320 L320 250" stroke="url(#metal)" stroke-width="10"/>`);
    s.ball(320, 300, 70);
    if (s.p.pearl || s.p.stones) s.accent(320, 268, 58, 0);
    else {
      for (let i = 0; i < 6; i++) {
        const th = (i / 6) * Math.PI * 2;
        s.ball(320 + Math.cos(th) * 34, 290 + Math.sin(th) * 34, 20);
      }
      s.ball(320, 290, 22);
    }
  },
  toe_rings(s) {
    for (const cx of [205, 435]) {
      s.add(
        `<path d="M${cx - 100} 380 A100 42 0 1 0 ${cx - 20} 338" fill="none" stroke="url(#metal)" stroke-width="18" stroke-linecap="round"/>` +
          `<path d="M${cx + 20} 338 A100 42 0 0 1 ${cx + 100} 380" fill="none" stroke="url(#metal)" stroke-width="18" stroke-linecap="round"/>`,
      );
      for (let i = 0; i < 6; i++) {
        const th = (i / 6) * Math.PI * 2;
        s.ball(cx + Math.cos(th) * 24, 330 + Math.sin(th) * 24, 15);
      }
      s.accent(cx, 330, 15, 0);
    }
  },
  bangles(s) {
    for (let i = 3; i >= 0; i--) {
      const cy = 200 + i * 70;
      s.add(
        `<ellipse cx="320" cy="${cy}" rx="200" ry="78" fill="none" stroke="url(#metal)" stroke-width="26"/>` +
          `<ellipse cx="320" cy="${cy}" rx="200" ry="78" fill="none" stroke="${s.p.metal[0]}" stroke-width="3" opacity="0.6" stroke-dasharray="4 10"/>`,
      );
      const front = along(9, arc(320, cy, 200, 78, 0.15 * Math.PI, 0.85 * Math.PI));
      front.forEach((pt, k) =>
        s.p.stones || s.p.pearl ? s.accent(pt.x, pt.y, 8, k + i) : s.ball(pt.x, pt.y, 5),
      );
    }
  },
  bracelets(s) {
    const pts = along(44, arc(320, 320, 210, 120, 0, 2 * Math.PI));
    chainLinks(s, pts, 14);
    pts.forEach((pt, i) => {
      if (i % 3 === 0 && Math.sin((i / 43) * 2 * Math.PI) > 0.15) s.accent(pt.x, pt.y, 11, i);
    });
    s.add(
      `<rect x="300" y="186" width="40" height="26" rx="6" fill="url(#metal)" stroke="${s.p.metal[2]}"/>`,
    );
  },
  anklets(s) {
    const pts = along(64, arc(320, 260, 235, 100, 0, 2 * Math.PI));
    chainLinks(s, pts, 10);
    pts.forEach((pt, i) => {
      const front = Math.sin((i / 63) * 2 * Math.PI) > 0.1;
      if (front && i % 3 === 0) s.bell(pt.x, pt.y + 6, 10);
      else if (front && i % 3 === 1 && (s.p.stones || s.p.pearl)) s.accent(pt.x, pt.y, 7, i);
    });
  },
  armlets(s) {
    s.add(
      `<path d="M120 360 Q320 80 520 360" fill="none" stroke="url(#metal)" stroke-width="52" stroke-linecap="round"/>` +
        `<path d="M120 360 Q320 80 520 360" fill="none" stroke="${s.p.metal[2]}" stroke-width="3" opacity="0.6"/>`,
    );
    for (let i = 1; i < 12; i++) {
      const t = i / 12;
      const x = (1 - t) * (1 - t) * 120 + 2 * (1 - t) * t * 320 + t * t * 520;
      const y = (1 - t) * (1 - t) * 360 + 2 * (1 - t) * t * 80 + t * t * 360;
      if (Math.abs(t - 0.5) > 0.1) s.accent(x, y, 10, i);
      if (i % 2 === 1) s.drop(x, y + 24, 14, 7);
    }
    s.ball(320, 222, 66);
    for (let i = 0; i < 10; i++) {
      const th = (i / 10) * Math.PI * 2;
      s.accent(320 + Math.cos(th) * 48, 222 + Math.sin(th) * 48, 8, i);
    }
    s.accent(320, 222, 28, 0);
    for (let i = -2; i <= 2; i++) s.drop(320 + i * 22, 286, 20 + (2 - Math.abs(i)) * 10, 8);
  },
  waist_chains(s) {
    s.add(
      `<path d="M40 230 Q320 440 600 230" fill="none" stroke="url(#metal)" stroke-width="66"/>` +
        `<path d="M40 230 Q320 440 600 230" fill="none" stroke="${s.p.metal[2]}" stroke-width="2" opacity="0.6" stroke-dasharray="10 8"/>`,
    );
    for (let i = 1; i < 16; i++) {
      const t = i / 16;
      const x = (1 - t) * (1 - t) * 40 + 2 * (1 - t) * t * 320 + t * t * 600;
      const y = (1 - t) * (1 - t) * 230 + 2 * (1 - t) * t * 440 + t * t * 230;
      if (Math.abs(t - 0.5) > 0.12) s.accent(x, y, 12, i);
    }
    s.add(
      `<ellipse cx="320" cy="340" rx="100" ry="74" fill="url(#ball)" stroke="${s.p.metal[2]}" stroke-width="3"/>`,
    );
    for (let i = 0; i < 12; i++) {
      const th = (i / 12) * Math.PI * 2;
      s.accent(320 + Math.cos(th) * 76, 340 + Math.sin(th) * 52, 9, i);
    }
    if (s.p.coins) s.coin(320, 340, 36);
    else s.accent(320, 340, 34, 0);
    for (let i = -3; i <= 3; i++) s.drop(320 + i * 24, 408, 14, 8);
  },
  hair_accessories(s) {
    s.add(`<line x1="320" y1="40" x2="320" y2="440" stroke="${s.p.metal[1]}" stroke-width="6"/>`);
    const sizes = [58, 50, 43, 37, 32];
    let y = 90;
    sizes.forEach((r, i) => {
      s.ball(320, y, r);
      for (let k = 0; k < 8; k++) {
        const th = (k / 8) * Math.PI * 2;
        s.ball(320 + Math.cos(th) * r * 0.72, y + Math.sin(th) * r * 0.72, r * 0.14);
      }
      if (s.p.coins) s.coin(320, y, r * 0.45);
      else s.accent(320, y, r * 0.45, i);
      y += r + sizes[Math.min(i + 1, sizes.length - 1)] + 8;
    });
    for (let i = -4; i <= 4; i++) {
      const x2 = 320 + i * 16;
      s.add(
        `<line x1="320" y1="${y - 20}" x2="${x2}" y2="${y + 70}" stroke="${s.p.metal[1]}" stroke-width="3"/>`,
      );
      if (s.p.pearl) s.pearl(x2, y + 80, 9);
      else s.ball(x2, y + 80, 9);
    }
  },
};

/** The SVG drawing of a category in a material's colours. */
export function drawProductSvg(category: ProductCategory, material: ProductMaterial): string {
  const s = new Svg(PALETTES[material]);
  DRAW[category](s);
  return s.toString();
}

/** The drawing rasterised to PNG, ready for ingestImage (which accepts raster images only). */
export async function drawProductPng(
  category: ProductCategory,
  material: ProductMaterial,
  size = 560,
): Promise<Buffer> {
  return sharp(Buffer.from(drawProductSvg(category, material)), { density: (72 * size) / W })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

/**
 * Try-on drawings (docs/product-rules.md §16): the piece alone as worn, seen from the front, on a transparent
 * background, cropped to it, with its anchor point (fractions of the crop): one jhumka held at the top of its
 * stud, a nose pin's flower at its centre, a necklace at the middle of its top, a pendant at its bale (the
 * try-on draws the chain).
 */
const TRY_ON_DRAW: Partial<
  Record<ProductCategory, { box: [number, number, number, number]; anchor: [number, number]; draw: Drawer }>
> = {
  earrings: { box: [10, 8, 180, 282], anchor: [90, 3], draw: (s) => jhumka(s, 100, 50, 1) },
  nose_pins: {
    box: [200, 150, 240, 240],
    anchor: [120, 120],
    draw: (s) => {
      for (let i = 0; i < 8; i++) {
        const th = (i / 8) * Math.PI * 2;
        s.ball(320 + Math.cos(th) * 78, 270 + Math.sin(th) * 78, 40);
        s.accent(320 + Math.cos(th) * 78, 270 + Math.sin(th) * 78, 24, i);
      }
      s.ball(320, 270, 54);
      s.accent(320, 270, 40, 0);
    },
  },
  necklaces: { box: [90, 95, 460, 430], anchor: [230, 26], draw: DRAW.necklaces },
  pendants: {
    box: [245, 362, 150, 186],
    anchor: [75, 4],
    draw: (s) => {
      s.ball(320, 378, 12);
      s.add(
        `<path d="M320 392 C250 440 250 520 320 540 C390 520 390 440 320 392 Z" fill="url(#metal)" stroke="${s.p.metal[2]}" stroke-width="3"/>`,
      );
      if (s.p.coins) s.coin(320, 480, 34);
      else s.accent(320, 482, 32, 0);
    },
  },
};

const TRY_ON_SIDE = 256;

/** A try-on picture of a piece: transparent PNG and its anchor, or null for a category that is not tried on. */
export async function drawTryOnPng(
  category: ProductCategory,
  material: ProductMaterial,
  purity: string | null = null,
): Promise<{ png: Buffer; anchorX: number; anchorY: number } | null> {
  const spec = TRY_ON_DRAW[category];
  if (!spec) return null;
  // In the colour of the metal it is made of (a diamond or sapphire set in 18K gold is gold, not white).
  const s = new Svg({ ...PALETTES[material], metal: [...METAL_SHADES[metalTone(material, purity)]] });
  spec.draw(s);
  const [, , w, h] = spec.box;
  // About the size a piece is drawn at on a 640×480 camera picture: a necklace up to TRY_ON_SIDE a side, the
  // smaller pieces 160 px.
  const density = (72 * (category === 'necklaces' ? TRY_ON_SIDE : TRY_ON_SIDE * 0.625)) / Math.max(w, h);
  const png = await sharp(Buffer.from(s.render(spec.box, false)), { density })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { png, anchorX: spec.anchor[0] / w, anchorY: spec.anchor[1] / h };
}
