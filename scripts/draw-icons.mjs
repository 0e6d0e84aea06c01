// Draws Nagai's app icons (a gold jhumka on maroon) as SVG and renders them to PNG with sharp.
// Run: node scripts/draw-icons.mjs — the PNGs in pwa/public/icons are committed, so builds never need sharp.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const OUT = path.resolve(import.meta.dirname, '../pwa/public/icons');
const MAROON = '#7a1f2b';
const MAROON_DARK = '#5f1821';
const IVORY = '#fffdf8';

/** The jhumka drawn in a 512 box, centred: stud, chain, bell with bands and a fringe of pearls. */
function jhumka({ mono = false } = {}) {
  const gold = mono ? '#fff' : 'url(#gold)';
  const line = mono ? 'none' : '#8a5a0c';
  const pearl = mono ? '#fff' : IVORY;
  const jewel = mono ? 'none' : MAROON;
  const pearls = [];
  for (let i = 0; i < 9; i++) {
    const x = 160 + i * 24;
    pearls.push(
      `<line x1="${x}" y1="344" x2="${x}" y2="${mono ? 362 : 360}" stroke="${mono ? '#fff' : '#c89a3a'}" stroke-width="${mono ? 6 : 3}"/>`,
      `<circle cx="${x}" cy="370" r="${mono ? 11 : 10}" fill="${pearl}" ${mono ? '' : 'stroke="#d9c7a0" stroke-width="1.5"'}/>`,
    );
  }
  return `
  <g transform="translate(0 26)">
    <!-- stud: a flower of petals round a jewel -->
    <g transform="translate(256 104)">
      ${[0, 60, 120, 180, 240, 300]
        .map(
          (a) =>
            `<ellipse rx="15" ry="26" transform="rotate(${a}) translate(0 -20)" fill="${gold}" stroke="${line}" stroke-width="2"/>`,
        )
        .join('')}
      <circle r="20" fill="${gold}" stroke="${line}" stroke-width="2"/>
      <circle r="10" fill="${mono ? 'none' : jewel}"/>
    </g>
    <!-- chain -->
    <circle cx="256" cy="156" r="7" fill="${gold}" stroke="${line}" stroke-width="1.5"/>
    <circle cx="256" cy="172" r="6" fill="${gold}" stroke="${line}" stroke-width="1.5"/>
    <!-- bell -->
    <path d="M256 178c-52 0-92 62-104 166h208c-12-104-52-166-104-166z" fill="${gold}" stroke="${line}" stroke-width="3"/>
    <path d="M256 178c-20 0-34 10-42 24h84c-8-14-22-24-42-24z" fill="${mono ? '#fff' : '#f6dd92'}" opacity="${mono ? 1 : 0.8}"/>
    ${
      mono
        ? ''
        : `<path d="M196 262c40 12 80 12 120 0" fill="none" stroke="#8a5a0c" stroke-width="3"/>
    <path d="M172 312c56 16 112 16 168 0" fill="none" stroke="#8a5a0c" stroke-width="3"/>
    ${[0, 1, 2, 3, 4, 5, 6]
      .map((i) => `<circle cx="${190 + i * 22}" cy="${291 + Math.abs(i - 3) * -2}" r="5" fill="${MAROON}"/>`)
      .join('')}
    <circle cx="256" cy="232" r="11" fill="${MAROON}" stroke="#8a5a0c" stroke-width="2"/>`
    }
    <rect x="148" y="336" width="216" height="12" rx="6" fill="${gold}" stroke="${line}" stroke-width="2"/>
    ${pearls.join('\n    ')}
  </g>`;
}

const DEFS = `<defs>
  <linearGradient id="gold" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#f7dc8c"/><stop offset="0.55" stop-color="#d9a93f"/><stop offset="1" stop-color="#a8761c"/>
  </linearGradient>
  <radialGradient id="glow" cx="0.5" cy="0.42" r="0.62">
    <stop offset="0" stop-color="#942a39"/><stop offset="1" stop-color="${MAROON_DARK}"/>
  </radialGradient>
</defs>`;

/** The launcher icon: rounded maroon tile (transparent corners), the mark filling most of it. */
function anyIcon() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${DEFS}
  <rect width="512" height="512" rx="112" fill="url(#glow)"/>
  <rect x="14" y="14" width="484" height="484" rx="100" fill="none" stroke="#d9a93f" stroke-opacity="0.45" stroke-width="4"/>
  ${jhumka()}
</svg>`;
}

/** Maskable: full-bleed maroon, the mark scaled into the 80% safe circle. */
function maskableIcon() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">${DEFS}
  <rect width="512" height="512" fill="url(#glow)"/>
  <g transform="translate(256 256) scale(0.72) translate(-256 -256)">${jhumka()}</g>
</svg>`;
}

/** Notification badge: Android uses only the alpha channel, so a white silhouette on transparent. */
function badgeIcon() {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
  <g transform="translate(256 256) scale(1.12) translate(-256 -256)">${jhumka({ mono: true })}</g>
</svg>`;
}

function shortcutIcon(glyph) {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96">${DEFS}
  <circle cx="48" cy="48" r="48" fill="${MAROON}"/>
  <g fill="none" stroke="#e8c26a" stroke-width="5" stroke-linecap="round" stroke-linejoin="round">${glyph}</g>
</svg>`;
}

// A shopping bag for the marketplace, a bar chart for the seller dashboard.
const BAG = '<path d="M28 38h40l-3 32H31z"/><path d="M38 38v-6a10 10 0 0 1 20 0v6"/>';
const CHART = '<path d="M26 70h44"/><path d="M32 62V46"/><path d="M46 62V32"/><path d="M60 62V40"/>';

async function png(svg, size, file) {
  await sharp(Buffer.from(svg), { density: 300 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: size <= 96 })
    .toFile(path.join(OUT, file));
  console.log(`${file} ${fs.statSync(path.join(OUT, file)).size} bytes`);
}

fs.mkdirSync(OUT, { recursive: true });
await png(anyIcon(), 192, 'icon-192.png');
await png(anyIcon(), 512, 'icon-512.png');
await png(maskableIcon(), 512, 'icon-maskable-512.png');
await png(maskableIcon(), 180, 'apple-touch-icon-180.png');
await png(badgeIcon(), 96, 'badge-96.png');
await png(shortcutIcon(BAG), 96, 'shortcut-marketplace-96.png');
await png(shortcutIcon(CHART), 96, 'shortcut-dashboard-96.png');
fs.writeFileSync(path.join(OUT, 'favicon.svg'), anyIcon().replace(/\n\s*/g, ''));
console.log('favicon.svg');
