import type { Category } from '@campus/contract';
import sharp from 'sharp';

/** Two gradient colours per category. */
const PALETTE: Record<Category, [string, string]> = {
  BOOKS: ['#f6d365', '#fda085'],
  ELECTRONICS: ['#4facfe', '#00f2fe'],
  LIFESTYLE: ['#a8edea', '#fed6e3'],
  EVENTS: ['#43e97b', '#38f9d7'],
  SERVICES: ['#fa709a', '#fee140'],
  CLOTHING: ['#667eea', '#764ba2'],
  OTHER: ['#89f7fe', '#66a6ff'],
};

/** Simple line icons (drawn in a 200 x 200 box), one per category. */
const ICONS: Record<Category, string> = {
  BOOKS:
    '<rect x="30" y="40" width="60" height="120" rx="6"/><rect x="95" y="30" width="50" height="130" rx="6"/><path d="M150 55 l30 -8 l22 110 l-30 8 z"/>',
  ELECTRONICS:
    '<rect x="25" y="40" width="150" height="95" rx="10"/><rect x="40" y="55" width="120" height="65" rx="4" fill="rgba(255,255,255,0.35)"/><rect x="75" y="140" width="50" height="10"/><rect x="55" y="150" width="90" height="10" rx="4"/>',
  LIFESTYLE:
    '<path d="M70 40 h60 l20 55 h-100 z"/><rect x="95" y="95" width="10" height="60"/><rect x="60" y="155" width="80" height="12" rx="6"/>',
  EVENTS:
    '<circle cx="100" cy="100" r="62"/><path d="M100 38 v124 M38 100 h124 M56 56 q44 44 88 0 M56 144 q44 -44 88 0" stroke="rgba(255,255,255,0.6)" stroke-width="6" fill="none"/>',
  SERVICES: '<path d="M100 30 l20 45 l48 4 l-37 32 l12 48 l-43 -26 l-43 26 l12 -48 l-37 -32 l48 -4 z"/>',
  CLOTHING: '<path d="M70 35 l-45 25 l18 40 l22 -10 v80 h70 v-80 l22 10 l18 -40 l-45 -25 q-30 25 -60 0 z"/>',
  OTHER:
    '<path d="M100 30 l65 35 v70 l-65 35 l-65 -35 v-70 z"/><path d="M35 65 l65 35 l65 -35 M100 100 v70" stroke="rgba(255,255,255,0.6)" stroke-width="6" fill="none"/>',
};

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );
}

/** A 1200 x 900 JPEG: category gradient, a soft icon and the listing's name (fonts permitting). */
export async function demoPhoto(name: string, category: Category, seed: number): Promise<Buffer> {
  const [a, b] = PALETTE[category];
  const angle = (seed * 37) % 360;
  const label = escapeXml(name.length > 34 ? `${name.slice(0, 32)}…` : name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900" viewBox="0 0 1200 900">
  <defs>
    <linearGradient id="g" gradientTransform="rotate(${angle} 0.5 0.5)">
      <stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/>
    </linearGradient>
  </defs>
  <rect width="1200" height="900" fill="url(#g)"/>
  <circle cx="${200 + ((seed * 97) % 800)}" cy="${150 + ((seed * 53) % 300)}" r="260" fill="rgba(255,255,255,0.12)"/>
  <circle cx="${900 - ((seed * 41) % 600)}" cy="${700 - ((seed * 29) % 200)}" r="180" fill="rgba(255,255,255,0.10)"/>
  <g transform="translate(400 140) scale(2)" fill="rgba(255,255,255,0.85)">${ICONS[category]}</g>
  <rect x="0" y="700" width="1200" height="200" fill="rgba(0,0,0,0.25)"/>
  <text x="600" y="820" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="64" font-weight="bold" fill="#fff" text-anchor="middle">${label}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}
