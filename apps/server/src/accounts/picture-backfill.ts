// Pictures stored before WebP renditions existed have only their JPEGs. After start-up the missing
// WebPs are rendered from the stored JPEG, one picture at a time and newest first (the Home carousel
// shows the newest), in the background: start-up and requests never wait for it, and until a
// picture's WebP exists its JPEG is served. Idempotent (a picture with both WebPs is skipped), and
// safe for instances sharing the directory: files appear under their name only when complete.
import { existsSync, rmSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import sharp from 'sharp';
import type { AppContext } from '../context';
import type { Part } from '../part';
import { pictureFiles } from '../repositories/pictures';
import { encodePicture, PICTURE_MAX_PIXELS, picturesDir, writeFileAtomically } from './pictures';

const STORED_JPEG = /^([0-9a-f]{16})\.jpg$/;
/** What writeFileAtomically writes before its rename; left behind only by a crash. */
const TEMP_FILE = /\.[0-9a-f]{12}\.tmp$/;
const STALE_TEMP_MS = 60 * 60_000;

/** Renders the missing WebPs of one picture; how many files it wrote. */
async function backfillPicture(dir: string, id: string): Promise<number> {
  const files = pictureFiles(id);
  const missing = (['fullWebp', 'thumbWebp'] as const).filter(
    (which) => !existsSync(join(dir, files[which])),
  );
  if (missing.length === 0) return 0;
  // Stored by render(): already oriented and at most 1080 px wide; the limit only guards against
  // a file someone else put there.
  const pixels = await sharp(join(dir, files.full), {
    limitInputPixels: PICTURE_MAX_PIXELS,
    failOn: 'error',
  })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const webp = await encodePicture(pixels, 'webp');
  const rendered = { fullWebp: webp.full, thumbWebp: webp.thumb };
  for (const which of missing) writeFileAtomically(dir, files[which], rendered[which]);
  // Removed (deleted or rejected) while it was being rendered: leave no WebP behind.
  if (!existsSync(join(dir, files.full))) {
    for (const which of missing) rmSync(join(dir, files[which]), { force: true });
    return 0;
  }
  return missing.length;
}

/**
 * Makes the WebP files of every stored picture that lacks them; the number of files made. Between
 * two pictures it pauses as long as the last one took, so it uses at most about half a core.
 */
export async function backfillWebp(ctx: AppContext, signal?: AbortSignal): Promise<number> {
  const dir = picturesDir(ctx);
  const names = await readdir(dir).catch(() => [] as string[]);
  const present = new Set(names);
  const todo: { id: string; storedAt: number }[] = [];
  const storedAt = async (name: string) => (await stat(join(dir, name)).catch(() => null))?.mtimeMs;
  for (const name of names) {
    if (TEMP_FILE.test(name)) {
      if (((await storedAt(name)) ?? Infinity) < Date.now() - STALE_TEMP_MS)
        rmSync(join(dir, name), { force: true });
      continue;
    }
    const id = STORED_JPEG.exec(name)?.[1];
    if (!id) continue;
    const files = pictureFiles(id);
    if (present.has(files.fullWebp) && present.has(files.thumbWebp)) continue;
    const at = await storedAt(name);
    if (at !== undefined) todo.push({ id, storedAt: at });
  }
  todo.sort((a, b) => b.storedAt - a.storedAt);
  let made = 0;
  for (const { id } of todo) {
    if (signal?.aborted) break;
    const started = performance.now();
    made += await backfillPicture(dir, id).catch((err: unknown) => {
      ctx.log.warn({ err, picture: id }, 'could not make the WebP files of a stored picture');
      return 0;
    });
    await delay(performance.now() - started, undefined, { signal }).catch(() => undefined);
  }
  return made;
}

export const pictureWebpBackfillPart: Part = {
  name: 'picture-webp-backfill',
  async start(ctx) {
    const stop = new AbortController();
    const running = backfillWebp(ctx, stop.signal).then(
      (made) => ctx.log.info({ made }, `made ${made} WebP files of stored pictures`),
      (err: unknown) => ctx.log.error({ err }, 'the WebP backfill of stored pictures failed'),
    );
    return {
      async stop() {
        stop.abort();
        await running;
      },
    };
  },
};
