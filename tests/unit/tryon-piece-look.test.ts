import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  KIND_SIZE_RANGE_MM,
  METAL_SHADES,
  kindSizeMm,
  metalTone,
  type SizedCategory,
} from '../../api/contract/piece-look';
import { createRng, makeProduct } from '../../api/src/seeds/catalogue';
import { drawTryOnPng } from '../../api/src/seeds/images';
import { pieceSvg } from '../../pwa/src/features/tryon/pieces';

/** Issue #51 item 4: a drawn piece in its metal's colour, a demo piece at its kind's real size. */
describe('try-on piece look', () => {
  it('draws gold of any karat gold, silver silver and platinum grey-white', () => {
    expect(metalTone('gold', '22K')).toBe('gold');
    expect(metalTone('gold', '18K')).toBe('gold');
    expect(metalTone('gold', '14 kt')).toBe('gold');
    // A diamond or sapphire set in 18K gold is gold, not white.
    expect(metalTone('diamond', '18K')).toBe('gold');
    expect(metalTone('sapphire', '18K')).toBe('gold');
    expect(metalTone('pearl', '22K')).toBe('gold');
    expect(metalTone('artificial', 'Gold-plated alloy')).toBe('gold');
    expect(metalTone('silver', '925')).toBe('silver');
    expect(metalTone('silver', null)).toBe('silver');
    expect(metalTone('ruby', '925')).toBe('silver');
    expect(metalTone('platinum', 'PT950')).toBe('platinum');
    expect(metalTone('diamond', 'PT950')).toBe('platinum');
    expect(metalTone('copper', 'Pure copper')).toBe('copper');
    expect(metalTone('brass', 'Brass')).toBe('brass');
    expect(new Set(Object.values(METAL_SHADES).map((s) => s[1])).size).toBe(5);
  });

  it("the try-on's drawn pieces are in the metal's colours", () => {
    for (const kind of ['earrings', 'nose_pin', 'necklace', 'pendant'] as const) {
      expect(pieceSvg(kind)).toBe(pieceSvg(kind, 'gold'));
      expect(pieceSvg(kind, 'gold')).toContain(METAL_SHADES.gold[1]);
      const silver = pieceSvg(kind, 'silver');
      expect(silver).toContain(METAL_SHADES.silver[1]);
      expect(silver).not.toContain(METAL_SHADES.gold[1]);
      expect(pieceSvg(kind, 'platinum')).toContain(METAL_SHADES.platinum[1]);
    }
  });

  it("a size in a kind's range: the ends and the middle, a nose pin round", () => {
    expect(kindSizeMm('earrings', 0, 0)).toEqual({ width: 10, height: 18 });
    expect(kindSizeMm('earrings', 1, 1)).toEqual({ width: 24, height: 60 });
    expect(kindSizeMm('pendants', 0.5, 0.5)).toEqual({ width: 21, height: 31.5 });
    expect(kindSizeMm('nose_pins', 0.4, 0.9)).toEqual({ width: 5, height: 5 });
    expect(kindSizeMm('necklaces', 2, -1)).toEqual({ width: 160, height: 90 });
  });

  it('every demo piece of a sized kind measures within its kind (no 6 mm earrings or 45 mm nose pins)', () => {
    const rng = createRng(51);
    for (const category of Object.keys(KIND_SIZE_RANGE_MM) as SizedCategory[]) {
      const widths: number[] = [];
      for (let i = 0; i < 60; i++) {
        const p = makeProduct(rng, category, 'gold', `T-${category}-${i}`);
        const r = KIND_SIZE_RANGE_MM[category];
        const w = Number(p.width_mm);
        const h = Number(p.height_mm);
        expect(w, `${category} width`).toBeGreaterThanOrEqual(r.width[0]);
        expect(w, `${category} width`).toBeLessThanOrEqual(r.width[1]);
        expect(h, `${category} height`).toBeGreaterThanOrEqual(r.height[0]);
        expect(h, `${category} height`).toBeLessThanOrEqual(r.height[1]);
        widths.push(w);
      }
      // Sizes still vary within the kind.
      expect(new Set(widths).size, category).toBeGreaterThan(5);
    }
    // A kind the try-on does not size has none.
    expect(makeProduct(rng, 'bangles', 'gold', 'T-B').width_mm).toBeNull();
  });

  it("the demo's try-on picture of a diamond pendant set in 18K gold is gold, of a platinum one grey-white", async () => {
    const meanOpaque = async (png: Buffer) => {
      const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      let r = 0;
      let b = 0;
      let n = 0;
      for (let i = 0; i < data.length; i += info.channels) {
        if (data[i + 3]! < 250) continue;
        r += data[i]!;
        b += data[i + 2]!;
        n++;
      }
      return { r: r / n, b: b / n };
    };
    const diamond = await meanOpaque((await drawTryOnPng('pendants', 'diamond', '18K'))!.png);
    const platinum = await meanOpaque((await drawTryOnPng('pendants', 'platinum', 'PT950'))!.png);
    // Gold: far more red than blue. Grey-white: about as much blue as red.
    expect(diamond.r - diamond.b).toBeGreaterThan(60);
    expect(Math.abs(platinum.r - platinum.b)).toBeLessThan(30);
  });
});
