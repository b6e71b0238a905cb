// Demo photos for a few simulated stations, so the Home carousel of a fresh install shows what it
// shows on a real network: approved station pictures. Each is drawn here (an antenna on a mast
// against the sky, with the station's name) and goes through the same upload path as an owner's
// picture, then is approved as an operator would approve it.
import sharp from 'sharp';
import { addPicture } from '../accounts/pictures';
import { findStationRow } from '../repositories/stations';
import type { AppContext } from '../context';
import { countActivePictures, PICTURE_STATUS, setPictureStatus } from '../repositories/pictures';

const SKIES = [
  ['#0b3d91', '#6fa8dc'],
  ['#3d1c5c', '#f6b26b'],
  ['#0c343d', '#76a5af'],
  ['#1c4587', '#ead1dc'],
] as const;

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function stationScene(label: string, variant: number): string {
  const [top, bottom] = SKIES[variant % SKIES.length] ?? SKIES[0];
  const mastX = 420 + (variant % 3) * 180;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1280" height="720">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/>
  </linearGradient></defs>
  <rect width="1280" height="720" fill="url(#sky)"/>
  <path d="M0 600 L220 540 L420 585 L700 520 L980 575 L1280 530 L1280 720 L0 720 Z" fill="#273238"/>
  <rect x="${mastX - 6}" y="250" width="12" height="330" fill="#b7b7b7"/>
  <rect x="${mastX - 110}" y="246" width="220" height="6" fill="#d9d9d9"/>
  ${[-100, -55, -10, 35, 80]
    .map(
      (dx, k) =>
        `<rect x="${mastX + dx}" y="${222 + k * 4}" width="5" height="${54 - k * 8}" fill="#d9d9d9"/>`,
    )
    .join('')}
  <circle cx="${mastX + 150}" cy="200" r="26" fill="none" stroke="#efefef" stroke-width="6"/>
  <rect x="${mastX + 147}" y="226" width="6" height="26" fill="#d9d9d9"/>
  <rect x="${mastX + 40}" y="420" width="70" height="50" rx="6" fill="#efefef"/>
  <text x="60" y="90" font-family="sans-serif" font-size="52" fill="#ffffff">${escapeXml(label)}</text>
</svg>`;
}

/** Gives up to `count` of the stations one approved photo each, skipping any that has pictures. */
export async function addDemoPhotos(
  ctx: AppContext,
  stationIds: string[],
  count: number,
): Promise<number> {
  let added = 0;
  for (const [i, id] of stationIds.slice(0, count).entries()) {
    const station = await findStationRow(ctx.database.db, id);
    if (!station || (await countActivePictures(ctx.database.db, id)) > 0) continue;
    const jpeg = await sharp(Buffer.from(stationScene(id, i)))
      .jpeg({ quality: 80 })
      .toBuffer();
    const shortId = await addPicture(ctx, station, { data: jpeg, filename: 'station.jpg' });
    await setPictureStatus(ctx.database.db, shortId, PICTURE_STATUS.approved);
    added += 1;
  }
  return added;
}
