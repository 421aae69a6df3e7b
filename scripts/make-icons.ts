/**
 * Draws the installed app's icons from src/web/public/favicon.svg into src/web/public/icons/
 * (committed; run again after changing the logo):
 *
 *   npx tsx scripts/make-icons.ts
 *
 * - icon-<size>.png: the logo as it is, at every size Android and the manifest check ask for;
 * - maskable-<size>.png: the logo shrunk into the middle 60% of a page-coloured square, so a
 *   launcher's circle or squircle mask never cuts into it (the safe zone is the inner 80%);
 * - apple-touch-icon.png: iOS's home-screen icon, 180 px on the page colour.
 */
import { mkdir, readFile } from 'node:fs/promises';
import sharp from 'sharp';

const PUBLIC = new URL('../src/web/public/', import.meta.url);
const OUT = new URL('icons/', PUBLIC);
export const ICON_SIZES = [48, 72, 96, 128, 144, 152, 192, 256, 384, 512] as const;
export const MASKABLE_SIZES = [192, 512] as const;
const PAGE = '#0b0b0b';

const svg = await readFile(new URL('favicon.svg', PUBLIC));
await mkdir(OUT, { recursive: true });

const render = (size: number) =>
  sharp(svg, { density: Math.ceil((72 * size) / 64) * 2 }).resize(size, size);

for (const size of ICON_SIZES) {
  await render(size)
    .png({ compressionLevel: 9 })
    .toFile(new URL(`icon-${size}.png`, OUT).pathname);
}

async function onPage(size: number, logoShare: number, file: string) {
  const logo = Math.round(size * logoShare);
  const inset = Math.round((size - logo) / 2);
  await sharp({ create: { width: size, height: size, channels: 4, background: PAGE } })
    .composite([{ input: await render(logo).png().toBuffer(), top: inset, left: inset }])
    .png({ compressionLevel: 9 })
    .toFile(new URL(file, OUT).pathname);
}

for (const size of MASKABLE_SIZES) await onPage(size, 0.6, `maskable-${size}.png`);
await onPage(180, 0.86, 'apple-touch-icon.png');
console.info(`wrote the icons to ${OUT.pathname}`);
