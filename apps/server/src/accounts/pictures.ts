// Station pictures: only JPEG, PNG and WebP (told from the bytes), decoded once with sharp,
// re-encoded without metadata (no GPS positions from phone photos), resized to 1080 px wide plus a
// 150 px thumbnail, each stored as JPEG and as WebP, and kept pending until an admin approves them.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  PICTURE_MAX_FILES,
  PICTURE_WIDTH_PX,
  stripTags,
  THUMBNAIL_WIDTH_PX,
} from '@tinygs/contracts';
import sharp, { type OutputInfo, type Sharp } from 'sharp';
import type { AppContext } from '../context';
import type { StationRow } from '../db/schema';
import { badRequest, HttpError, notFound } from '../http/errors';
import {
  countActivePictures,
  deletePicture,
  findPicture,
  insertPictureIfRoom,
  pictureFiles,
  type PictureFileNames,
} from '../repositories/pictures';

/**
 * Decompression bombs: a small file can declare a gigantic canvas. 25 megapixels covers phone and
 * camera photos; the side limit keeps a thin strip from turning into a huge resized copy.
 */
export const PICTURE_MAX_PIXELS = 25_000_000;
export const PICTURE_MAX_SIDE_PX = 16_384;
const JPEG_QUALITY = 85;
/**
 * WebP at quality 80, effort 4 (sharp's default), measured on 1080 px photos against JPEG q85:
 * 30-60% smaller (e.g. 82 kB -> 38 kB, 182 kB -> 110 kB; thumbnails 20-30%) for 30-150 ms more
 * per upload on a busy 2-core machine. Effort 6 saves another 2-4% for 2-3 times the time;
 * effort 2 costs 4% in size to save half of it; quality 75 would save 15% more.
 */
const WEBP_OPTIONS = { quality: 80, effort: 4 } as const;

export const TOO_MANY_PICTURES = `A station can have at most ${PICTURE_MAX_FILES} pictures.`;
export const UNSUPPORTED_PICTURE = 'Only JPEG, PNG and WebP pictures are accepted.';
export const TOO_MANY_PIXELS = `The picture must be at most ${PICTURE_MAX_PIXELS / 1_000_000} megapixels and ${PICTURE_MAX_SIDE_PX.toLocaleString('en')} pixels on a side.`;
export const NOT_AN_IMAGE = 'The file could not be read as a picture.';

export type PictureFormat = 'jpeg' | 'png' | 'webp';

function startsWith(data: Buffer, bytes: number[], at = 0): boolean {
  return data.length >= at + bytes.length && bytes.every((b, i) => data[at + i] === b);
}

/** The format the file's first bytes announce; null for anything but JPEG, PNG and WebP. */
export function pictureFormat(data: Buffer): PictureFormat | null {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // RIFF, four bytes of length, WEBP
  if (startsWith(data, [0x52, 0x49, 0x46, 0x46]) && startsWith(data, [0x57, 0x45, 0x42, 0x50], 8))
    return 'webp';
  return null;
}

export function picturesDir(ctx: AppContext): string {
  return join(ctx.config.dataDir, 'pictures');
}

/** Decoded pixels, as sharp's raw output describes them. */
interface Pixels {
  data: Buffer;
  info: OutputInfo;
}

type StoredFormat = 'jpeg' | 'webp';

const ENCODERS: Record<StoredFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: JPEG_QUALITY }),
  webp: (image) => image.webp(WEBP_OPTIONS),
};

/** The full size (the pixels as they are) and the thumbnail of already decoded pixels. */
export async function encodePicture(
  { data, info }: Pixels,
  format: StoredFormat,
): Promise<{ full: Buffer; thumb: Buffer }> {
  const { width, height, channels } = info;
  const pixels = () => sharp(data, { raw: { width, height, channels } });
  const encode = ENCODERS[format];
  const [full, thumb] = await Promise.all([
    encode(pixels()).toBuffer(),
    encode(pixels().resize({ width: THUMBNAIL_WIDTH_PX, withoutEnlargement: true })).toBuffer(),
  ]);
  return { full, thumb };
}

type Renditions = Record<keyof PictureFileNames, Buffer>;

/**
 * The stored copy and its thumbnail, as JPEG and WebP. The upload is decoded once: its header is
 * read (format and size checked before any pixel is decoded), then one pipeline decodes, orients
 * and resizes it to raw pixels, from which all four files are encoded.
 */
async function render(input: Buffer): Promise<Renditions> {
  const image = sharp(input, { limitInputPixels: PICTURE_MAX_PIXELS, failOn: 'error' });
  let resized: { data: Buffer; info: OutputInfo };
  try {
    // libvips picks its loader from the same signatures pictureFormat checked.
    const { width, height } = await image.metadata();
    if (width * height > PICTURE_MAX_PIXELS || Math.max(width, height) > PICTURE_MAX_SIDE_PX)
      throw new HttpError(413, TOO_MANY_PIXELS);
    resized = await image
      // Apply the camera's orientation before the EXIF block that carries it is dropped.
      .rotate()
      .resize({ width: PICTURE_WIDTH_PX, withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (err instanceof HttpError) throw err;
    // sharp already applies limitInputPixels when it reads the header.
    if (err instanceof Error && err.message.includes('exceeds pixel limit'))
      throw new HttpError(413, TOO_MANY_PIXELS);
    throw badRequest(NOT_AN_IMAGE);
  }
  const [jpeg, webp] = await Promise.all([
    encodePicture(resized, 'jpeg'),
    encodePicture(resized, 'webp'),
  ]);
  return { ...jpeg, fullWebp: webp.full, thumbWebp: webp.thumb };
}

/**
 * Writes a file under a temporary name and renames it into place, so that nobody (another
 * instance sharing the directory, the WebP backfill, a request) ever reads half of it.
 */
export function writeFileAtomically(dir: string, name: string, data: Buffer): void {
  const temp = join(dir, `${name}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, data);
    renameSync(temp, join(dir, name));
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
}

export async function addPicture(
  ctx: AppContext,
  station: StationRow,
  upload: { data: Buffer; filename: string },
): Promise<string> {
  const db = ctx.database.db;
  if (!pictureFormat(upload.data)) throw new HttpError(415, UNSUPPORTED_PICTURE);
  // A cheap early answer for a full station; the insert below is what enforces the count.
  if ((await countActivePictures(db, station.id)) >= PICTURE_MAX_FILES)
    throw badRequest(TOO_MANY_PICTURES);
  const renditions = await render(upload.data);
  const id = randomBytes(8).toString('hex');
  const dir = picturesDir(ctx);
  mkdirSync(dir, { recursive: true });
  const files = pictureFiles(id);
  const origName =
    stripTags(upload.filename)
      .replace(/[\r\n\t]/g, ' ')
      .trim()
      .slice(0, 200) || 'picture';
  let stored = false;
  try {
    // The WebPs first: the backfill renders a WebP for any JPEG it finds without one.
    for (const which of ['fullWebp', 'thumbWebp', 'full', 'thumb'] as const)
      writeFileAtomically(dir, files[which], renditions[which]);
    stored = await insertPictureIfRoom(
      ctx.database,
      {
        id,
        stationId: station.id,
        size: upload.data.length,
        origName,
        type: 'image/jpeg',
        createdAt: Date.now(),
      },
      PICTURE_MAX_FILES,
    );
  } finally {
    if (!stored) removePictureFiles(ctx, [id]);
  }
  if (!stored) throw badRequest(TOO_MANY_PICTURES);
  return id;
}

export function removePictureFiles(ctx: AppContext, ids: string[]): void {
  const dir = picturesDir(ctx);
  for (const id of ids) {
    for (const name of Object.values(pictureFiles(id))) rmSync(join(dir, name), { force: true });
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
  // The station's public page lists its approved pictures.
  ctx.events.publish('stations-changed', { stationIds: [station.id] });
}
