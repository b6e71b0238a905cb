// Station pictures: decoded with sharp (so anything that is not an image is refused), re-encoded
// without metadata (no GPS positions from phone photos), resized to 1080 px wide plus a 150 px
// thumbnail, and kept pending until an admin approves them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PICTURE_MAX_FILES,
  PICTURE_WIDTH_PX,
  stripTags,
  THUMBNAIL_WIDTH_PX,
} from '@tinygs/contracts';
import sharp from 'sharp';
import type { AppContext } from '../context';
import type { StationRow } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import {
  countActivePictures,
  deletePicture,
  findPicture,
  insertPicture,
  pictureFiles,
} from '../repositories/pictures';

// Decompression bombs: a small file can declare a gigantic canvas. 50 megapixels covers any camera.
const MAX_INPUT_PIXELS = 50_000_000;
const JPEG_QUALITY = 85;

export const TOO_MANY_PICTURES = `A station can have at most ${PICTURE_MAX_FILES} pictures.`;
export const NOT_AN_IMAGE =
  'The file is not a picture that can be read (JPEG, PNG, WebP, GIF, AVIF or TIFF).';

export function picturesDir(ctx: AppContext): string {
  return join(ctx.config.dataDir, 'pictures');
}

async function render(input: Buffer, widthPx: number): Promise<Buffer> {
  return (
    sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      // Apply the camera's orientation before the EXIF block that carries it is dropped.
      .rotate()
      .resize({ width: widthPx, withoutEnlargement: true })
      .jpeg({ quality: JPEG_QUALITY })
      .toBuffer()
  );
}

export async function addPicture(
  ctx: AppContext,
  station: StationRow,
  upload: { data: Buffer; filename: string },
): Promise<string> {
  const db = ctx.database.db;
  if ((await countActivePictures(db, station.id)) >= PICTURE_MAX_FILES)
    throw badRequest(TOO_MANY_PICTURES);
  let full: Buffer;
  let thumb: Buffer;
  try {
    full = await render(upload.data, PICTURE_WIDTH_PX);
    thumb = await render(upload.data, THUMBNAIL_WIDTH_PX);
  } catch {
    throw badRequest(NOT_AN_IMAGE);
  }
  const id = randomBytes(8).toString('hex');
  const dir = picturesDir(ctx);
  mkdirSync(dir, { recursive: true });
  const files = pictureFiles(id);
  writeFileSync(join(dir, files.full), full);
  writeFileSync(join(dir, files.thumb), thumb);
  const origName =
    stripTags(upload.filename)
      .replace(/[\r\n\t]/g, ' ')
      .trim()
      .slice(0, 200) || 'picture';
  await insertPicture(db, {
    id,
    stationId: station.id,
    size: upload.data.length,
    origName,
    type: 'image/jpeg',
    createdAt: Date.now(),
  });
  return id;
}

export function removePictureFiles(ctx: AppContext, ids: string[]): void {
  const dir = picturesDir(ctx);
  for (const id of ids) {
    const files = pictureFiles(id);
    rmSync(join(dir, files.full), { force: true });
    rmSync(join(dir, files.thumb), { force: true });
  }
}

export async function removePicture(
  ctx: AppContext,
  station: StationRow,
  pictureId: string,
): Promise<void> {
  const picture = await findPicture(ctx.database.db, pictureId);
  if (!picture || picture.stationId !== station.id) throw notFound('Picture not found');
  await deletePicture(ctx.database.db, pictureId);
  removePictureFiles(ctx, [pictureId]);
}
