// Station pictures as an owner uploads them from the Edit form: real multipart requests over HTTP,
// decoded and resized by the server, metadata gone, pending until approved and served to nobody
// but the owner until then; what an attacker could use against the decoder is refused early.
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PICTURE_MAX_FILES, type ErrorBody, type StationPhoto } from '@tinygs/contracts';
import pg from 'pg';
import sharp, { type Sharp } from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NOT_AN_IMAGE,
  TOO_MANY_PICTURES,
  TOO_MANY_PIXELS,
  UNSUPPORTED_PICTURE,
} from '../src/accounts/pictures';
import { backfillWebp, pictureWebpBackfillPart } from '../src/accounts/picture-backfill';
import {
  ACCEPT_MAX_CHARS,
  PICTURE_UPLOADS_PER_ACCOUNT,
} from '../src/accounts/routes/picture-routes';
import { parts } from '../src/parts';
import {
  insertPictureIfRoom,
  PICTURE_STATUS,
  setPictureStatus,
} from '../src/repositories/pictures';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';
import { waitFor } from './network-helpers';

async function photo(widthPx: number, heightPx: number): Promise<Buffer> {
  return sharp({
    create: {
      width: widthPx,
      height: heightPx,
      channels: 3,
      background: { r: 30, g: 120, b: 200 },
    },
  })
    .withExif({ IFD0: { Copyright: 'Station owner', ImageDescription: 'secret place' } })
    .jpeg()
    .toBuffer();
}

function solid(widthPx: number, heightPx: number): Sharp {
  return sharp({
    create: { width: widthPx, height: heightPx, channels: 3, background: { r: 9, g: 80, b: 40 } },
  });
}

/** Something like a photo's texture (blurred noise), as a JPEG: solid colours flatter any encoder. */
async function texture(widthPx: number, heightPx: number): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: widthPx,
      height: heightPx,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 120, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(noise).blur(2).jpeg({ quality: 95 }).toBuffer();
}

/** What Chrome sends for an <img>. */
const BROWSER_ACCEPT = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

/** RIFF, four bytes of length, WEBP. */
function isWebp(bytes: Buffer): boolean {
  return (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  );
}

const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

// A decompression bomb: 30 megapixels of one colour, under 100 kB as a PNG. Made once.
let bomb: Promise<Buffer> | undefined;
const pngBomb = () => (bomb ??= solid(6000, 5000).png({ compressionLevel: 9 }).toBuffer());

/**
 * Every request comes from an address of its own (TRUST_PROXY=1), so the per-client upload limit
 * stays out of the way except where a test names the address.
 */
let nextAddress = 0;
function freshAddress(): string {
  nextAddress += 1;
  return `10.${(nextAddress >> 16) & 255}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
}

function uploader(server: () => TestServer) {
  return (
    id: string,
    data: Buffer | string,
    headers: Record<string, string>,
    name = 'roof.jpg',
    type = '',
  ) => {
    const form = new FormData();
    form.append('upload', new Blob([data], { type }), name);
    return fetch(`${server().url}/v1/station/${id}/image`, {
      method: 'POST',
      headers: { 'x-forwarded-for': freshAddress(), ...headers },
      body: form,
    });
  };
}

describe.each(DIALECTS)('station pictures on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let stationId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect, { listen: true, env: { TRUST_PROXY: '1' } });
    owner = await loggedInUser(server);
    stationId = await buildStation(server.ctx.database.db, { userId: owner.id, name: 'Gallery_1' });
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const send = uploader(() => server);
  function upload(
    id: string,
    data: Buffer | string,
    headers: Record<string, string> = owner.headers,
    name = 'roof.jpg',
    type = '',
  ) {
    return send(id, data, headers, name, type);
  }
  const picturesDir = () => join(server.ctx.config.dataDir, 'pictures');
  const fetchPicture = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers });
  const countPictures = (id: string) => activePictures(server, id);
  /** Picture rows straight into storage: a station that already has `n` pictures, without decoding. */
  async function existingPictures(id: string, n: number): Promise<void> {
    for (let i = 0; i < n; i += 1) {
      await server.ctx.database.db
        .insertInto('stationPictures')
        .values({
          id: randomBytes(8).toString('hex'),
          stationId: id,
          status: PICTURE_STATUS.pending,
          size: 100,
          origName: `old-${i}.jpg`,
          type: 'image/jpeg',
          createdAt: Date.now(),
        })
        .execute();
    }
  }

  it('stores a resized copy and a thumbnail without metadata, pending approval', async () => {
    const original = await photo(2000, 1000);
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(stationId, original, owner.headers, 'ro<i>of.jpg');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const shortId = await res.text();
    expect(shortId).toMatch(/^[0-9a-f]{16}$/);

    const row = await server.ctx.database.db
      .selectFrom('stationPictures')
      .selectAll()
      .where('id', '=', shortId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      stationId,
      status: 0,
      origName: 'roof.jpg',
      type: 'image/jpeg',
      size: original.length,
    });

    const served = await fetchPicture(`/pictures/${shortId}.jpg`, owner.headers);
    expect(served.status).toBe(200);
    const full = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(full).toMatchObject({ width: 1080, height: 540, format: 'jpeg' });
    expect(full.exif).toBeUndefined();
    const thumb = await sharp(join(picturesDir(), `${shortId}_thumb.jpg`)).metadata();
    expect(thumb.width).toBe(150);
    expect(thumb.exif).toBeUndefined();
  });

  it('refuses a 4 MB file and a file that is not an image', async () => {
    const big = await upload(stationId, Buffer.alloc(4 * 1024 * 1024, 7));
    expect(big.status).toBe(413);
    expect(((await big.json()) as ErrorBody).error).toContain('3 MB');
    const text = await upload(
      stationId,
      'just some text, not a picture',
      owner.headers,
      'notes.jpg',
      'image/jpeg',
    );
    expect(text.status).toBe(415);
    expect(((await text.json()) as ErrorBody).error).toBe(UNSUPPORTED_PICTURE);
    // A JPEG signature followed by garbage gets as far as the decoder, which refuses it.
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 0x41)]);
    const corrupt = await upload(stationId, broken);
    expect(corrupt.status).toBe(400);
    expect(((await corrupt.json()) as ErrorBody).error).toBe(NOT_AN_IMAGE);
    const empty = await fetch(`${server.url}/v1/station/${stationId}/image`, {
      method: 'POST',
      headers: owner.headers,
      body: new FormData(),
    });
    expect(empty.status).toBe(400);
  });

  it('shows a pending picture to its owner only, and to everyone once approved', async () => {
    const shortId = await (await upload(stationId, await photo(400, 300))).text();
    const stranger = await loggedInUser(server);
    for (const file of [`/pictures/${shortId}.jpg`, `/pictures/${shortId}_thumb.jpg`]) {
      expect((await fetchPicture(file)).status, file).toBe(404);
      expect((await fetchPicture(file, stranger.headers)).status, file).toBe(404);
      const own = await fetchPicture(file, owner.headers);
      expect(own.status, file).toBe(200);
      expect(own.headers.get('content-type')).toBe('image/jpeg');
      expect(own.headers.get('cache-control')).toBe('private, no-store');
    }
    // What the station page lists: the pending picture for the owner, nothing for anyone else.
    const page = async (headers: Record<string, string> = {}) =>
      (await server.app.inject({ method: 'GET', url: `/v1/station/${stationId}`, headers }))
        .json<{ pictures: { shortId: string }[] }>()
        .pictures.map((p) => p.shortId);
    expect(await page()).not.toContain(shortId);
    expect(await page(owner.headers)).toContain(shortId);

    await setPictureStatus(server.ctx.database.db, shortId, PICTURE_STATUS.approved);
    const open = await fetchPicture(`/pictures/${shortId}.jpg`);
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toContain('public');
    // Approved as the admin CLI does it: the row, then the station's announcement.
    server.ctx.events.publish('stations-changed', { stationIds: [stationId] });
    expect(await page()).toContain(shortId);

    await setPictureStatus(server.ctx.database.db, shortId, PICTURE_STATUS.rejected);
    expect((await fetchPicture(`/pictures/${shortId}.jpg`, owner.headers)).status).toBe(404);
    // Names that are not a picture's are refused without looking at the disk.
    for (const path of [
      '/pictures/',
      `/pictures/${shortId}.png`,
      `/pictures/${shortId.toUpperCase()}.jpg`,
      '/pictures/..%2f..%2fserver-secret',
    ]) {
      expect((await fetchPicture(path, owner.headers)).status, path).toBe(404);
    }
  });

  it('serves a picture and its thumbnail as WebP to browsers that accept it and as JPEG to others, at the same URL', async () => {
    const shortId = await (await upload(stationId, await texture(1600, 1000))).text();
    await setPictureStatus(server.ctx.database.db, shortId, PICTURE_STATUS.approved);
    for (const [file, width] of [
      [`/pictures/${shortId}.jpg`, 1080],
      [`/pictures/${shortId}_thumb.jpg`, 150],
    ] as const) {
      const webp = await fetchPicture(file, { accept: BROWSER_ACCEPT });
      expect(webp.status, file).toBe(200);
      expect(webp.headers.get('content-type'), file).toBe('image/webp');
      expect(webp.headers.get('vary'), file).toMatch(/\baccept\b/i);
      const webpBytes = Buffer.from(await webp.arrayBuffer());
      expect(isWebp(webpBytes), file).toBe(true);
      expect((await sharp(webpBytes).metadata()).width, file).toBe(width);

      for (const accept of [undefined, '*/*', 'image/*', 'image/webp;q=0, image/jpeg']) {
        const jpeg = await fetchPicture(file, accept ? { accept } : {});
        expect(jpeg.status, `${file} ${accept}`).toBe(200);
        expect(jpeg.headers.get('content-type'), `${file} ${accept}`).toBe('image/jpeg');
        expect(jpeg.headers.get('vary'), `${file} ${accept}`).toMatch(/\baccept\b/i);
        const jpegBytes = Buffer.from(await jpeg.arrayBuffer());
        expect(isJpeg(jpegBytes), `${file} ${accept}`).toBe(true);
        expect(webpBytes.length, file).toBeLessThan(jpegBytes.length);
      }

      // A cached copy is revalidated against the representation it is (ETag and date). As a
      // browser revalidates: fetch() would add `Cache-Control: no-cache`, which forbids a 304.
      const revalidate = (headers: Record<string, string>) =>
        fetchPicture(file, { accept: BROWSER_ACCEPT, 'cache-control': 'max-age=0', ...headers });
      const etag = webp.headers.get('etag') ?? '';
      expect(etag).not.toBe('');
      expect((await revalidate({ 'if-none-match': etag })).status, file).toBe(304);
      const since = webp.headers.get('last-modified') ?? '';
      expect((await revalidate({ 'if-modified-since': since })).status, file).toBe(304);
      // The JPEG's tag does not stand for the WebP.
      const jpegTag = (await fetchPicture(file)).headers.get('etag') ?? '';
      expect(jpegTag).not.toBe(etag);
      const other = await revalidate({ 'if-none-match': jpegTag });
      expect(other.status, file).toBe(200);
      expect(other.headers.get('content-type'), file).toBe('image/webp');
      const head = await fetch(`${server.url}${file}`, {
        method: 'HEAD',
        headers: { accept: BROWSER_ACCEPT },
      });
      expect(head.status, file).toBe(200);
      expect(head.headers.get('content-type'), file).toBe('image/webp');
      expect(Number(head.headers.get('content-length')), file).toBe(webpBytes.length);
    }
    // The WebP files have no URL of their own.
    for (const file of [`/pictures/${shortId}.webp`, `/pictures/${shortId}_thumb.webp`]) {
      expect((await fetchPicture(file, { accept: BROWSER_ACCEPT })).status, file).toBe(404);
    }
  });

  it('shows a pending picture only to its owner and a rejected one to nobody, whatever the Accept header', async () => {
    const shortId = await (await upload(stationId, await photo(400, 300))).text();
    const stranger = await loggedInUser(server);
    const files = [`/pictures/${shortId}.jpg`, `/pictures/${shortId}_thumb.jpg`];
    for (const file of files) {
      for (const accept of [BROWSER_ACCEPT, 'image/webp', '*/*']) {
        expect((await fetchPicture(file, { accept })).status, file).toBe(404);
        expect((await fetchPicture(file, { ...stranger.headers, accept })).status, file).toBe(404);
      }
      const own = await fetchPicture(file, { ...owner.headers, accept: BROWSER_ACCEPT });
      expect(own.status, file).toBe(200);
      expect(own.headers.get('content-type'), file).toBe('image/webp');
      expect(own.headers.get('cache-control'), file).toBe('private, no-store');
    }
    // Rejected (its files still on disk): refused to its owner as well.
    await setPictureStatus(server.ctx.database.db, shortId, PICTURE_STATUS.rejected);
    for (const file of files) {
      const own = await fetchPicture(file, { ...owner.headers, accept: BROWSER_ACCEPT });
      expect(own.status, file).toBe(404);
    }
  });

  it('answers a very long or malformed Accept header with the JPEG', async () => {
    const shortId = await (await upload(stationId, await photo(400, 300))).text();
    await setPictureStatus(server.ctx.database.db, shortId, PICTURE_STATUS.approved);
    const file = `/pictures/${shortId}.jpg`;
    for (const accept of [
      // Names WebP, but is longer than any browser's: not parsed at all.
      `image/webp,${'image/x-filler;q=0.1,'.repeat(ACCEPT_MAX_CHARS / 10)}*/*`,
      'image/webp;q=nonsense',
      ';;;,,,=;q=,image/webp ; q = 1x',
      `${',image/webp;q=0'.repeat(60)}`,
    ]) {
      const res = await fetchPicture(file, { accept });
      expect(res.status, accept.slice(0, 40)).toBe(200);
      expect(res.headers.get('content-type'), accept.slice(0, 40)).toBe('image/jpeg');
      expect(res.headers.get('vary'), accept.slice(0, 40)).toMatch(/\baccept\b/i);
    }
    // Within the bound, a browser's header is read wherever image/webp stands in it.
    const firefox = await fetchPicture(file, { accept: 'image/avif,IMAGE/WEBP,*/*' });
    expect(firefox.headers.get('content-type')).toBe('image/webp');
  });

  it('makes the missing WebP files of pictures stored before them, and leaves existing ones alone', async () => {
    const dir = picturesDir();
    const old = await (await upload(stationId, await texture(1200, 800))).text();
    const recent = await (await upload(stationId, await photo(600, 400))).text();
    for (const id of [old, recent])
      await setPictureStatus(server.ctx.database.db, id, PICTURE_STATUS.approved);
    // The old picture as stored before WebP renditions: JPEGs only.
    rmSync(join(dir, `${old}.webp`));
    rmSync(join(dir, `${old}_thumb.webp`));
    const jpegOnly = await fetchPicture(`/pictures/${old}.jpg`, { accept: BROWSER_ACCEPT });
    expect(jpegOnly.status).toBe(200);
    expect(jpegOnly.headers.get('content-type')).toBe('image/jpeg');
    expect(jpegOnly.headers.get('vary')).toMatch(/\baccept\b/i);
    const kept = join(dir, `${recent}.webp`);
    const keptBytes = readFileSync(kept);
    const keptAt = statSync(kept).mtimeMs;
    // A stored file sharp cannot read is skipped without stopping the others.
    const broken = join(dir, 'ffffffffffff0001.jpg');
    writeFileSync(broken, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
    try {
      expect(await backfillWebp(server.ctx)).toBe(2);
    } finally {
      rmSync(broken, { force: true });
    }

    for (const [file, width] of [
      [`/pictures/${old}.jpg`, 1080],
      [`/pictures/${old}_thumb.jpg`, 150],
    ] as const) {
      const res = await fetchPicture(file, { accept: BROWSER_ACCEPT });
      expect(res.headers.get('content-type'), file).toBe('image/webp');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(isWebp(bytes), file).toBe(true);
      expect((await sharp(bytes).metadata()).width, file).toBe(width);
    }
    expect(readFileSync(kept).equals(keptBytes)).toBe(true);
    expect(statSync(kept).mtimeMs).toBe(keptAt);
    // Nothing left to do, and no temporary files left behind.
    expect(await backfillWebp(server.ctx)).toBe(0);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')(
    'runs the WebP backfill after start-up over the pictures directory it finds',
    async () => {
      const shortId = await (await upload(stationId, await photo(500, 300))).text();
      // One of the server's parts (on the elected instance with REDIS_URL).
      expect(parts.map((part) => part.name)).toContain(pictureWebpBackfillPart.name);
      // An older installation's directory: the picture's JPEGs only.
      const dataDir = mkdtempSync(join(tmpdir(), 'tinygs-backfill-'));
      const dir = join(dataDir, 'pictures');
      mkdirSync(dir);
      for (const file of [`${shortId}.jpg`, `${shortId}_thumb.jpg`])
        copyFileSync(join(picturesDir(), file), join(dir, file));
      const upgraded = await startTestServer(dialect, {
        env: { DATA_DIR: dataDir },
        parts: [pictureWebpBackfillPart],
      });
      try {
        await waitFor(
          () =>
            existsSync(join(dir, `${shortId}.webp`)) &&
            existsSync(join(dir, `${shortId}_thumb.webp`)),
          20_000,
        );
        expect(isWebp(readFileSync(join(dir, `${shortId}_thumb.webp`)))).toBe(true);
      } finally {
        await upgraded.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it('accepts JPEG, PNG and WebP by their bytes and refuses any other format with 415', async () => {
    const db = server.ctx.database.db;
    const someone = await loggedInUser(server);
    const id = await buildStation(db, { userId: someone.id, name: 'Formats_1' });
    const small = () => solid(64, 48);
    const accepted: [string, Buffer][] = [
      ['png', await small().png().toBuffer()],
      ['webp', await small().webp().toBuffer()],
      ['jpeg', await small().jpeg().toBuffer()],
    ];
    for (const [format, data] of accepted) {
      // The name and the declared type say GIF; the bytes decide.
      const res = await upload(id, data, someone.headers, 'animation.gif', 'image/gif');
      expect(res.status, format).toBe(200);
    }
    const refused: [string, Buffer | string][] = [
      ['gif', await small().gif().toBuffer()],
      ['tiff', await small().tiff().toBuffer()],
      ['avif', await small().avif().toBuffer()],
      ['svg', '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="48"/>'],
      ['bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(200, 1)])],
    ];
    for (const [format, data] of refused) {
      const res = await upload(id, data, someone.headers, 'roof.jpg', 'image/jpeg');
      expect(res.status, format).toBe(415);
      expect(((await res.json()) as ErrorBody).error, format).toBe(UNSUPPORTED_PICTURE);
    }
    expect(await countPictures(id)).toBe(accepted.length);
  });

  it('refuses more than 25 megapixels before decoding them, and decodes an upload once', async () => {
    const someone = await loggedInUser(server);
    const id = await buildStation(server.ctx.database.db, { userId: someone.id, name: 'Pixels_1' });
    // Pipelines sharp runs over the uploaded bytes (a metadata read is not one).
    const uploads: Buffer[] = [];
    const runs = vi.spyOn(sharp.prototype, 'toBuffer');
    const decodesOf = (data: Buffer) =>
      runs.mock.contexts.filter((image) => {
        const input = (image as unknown as { options: { input: { buffer?: unknown } } }).options
          .input.buffer;
        return Buffer.isBuffer(input) && input.equals(data);
      }).length;

    const bombData = await pngBomb();
    uploads.push(bombData);
    const bombRes = await upload(id, bombData, someone.headers, 'bomb.png');
    expect(bombRes.status).toBe(413);
    expect(((await bombRes.json()) as ErrorBody).error).toBe(TOO_MANY_PIXELS);
    expect(decodesOf(bombData)).toBe(0);
    const strip = await solid(20_000, 10).png().toBuffer();
    expect((await upload(id, strip, someone.headers, 'strip.png')).status).toBe(413);

    const good = await photo(2400, 1600);
    const res = await upload(id, good, someone.headers);
    expect(res.status).toBe(200);
    expect(decodesOf(good)).toBe(1);
    const shortId = await res.text();
    expect((await sharp(join(picturesDir(), `${shortId}.jpg`)).metadata()).width).toBe(1080);
    expect((await sharp(join(picturesDir(), `${shortId}_thumb.jpg`)).metadata()).width).toBe(150);
    expect(await countPictures(id)).toBe(1);
  });

  it('gives the last of ten places to exactly one of two uploads racing for it', async () => {
    const db = server.ctx.database.db;
    const someone = await loggedInUser(server);
    const id = await buildStation(db, { userId: someone.id, name: 'Race_1' });
    await existingPictures(id, PICTURE_MAX_FILES - 1);
    const before = readdirSync(picturesDir()).length;
    // Large enough that both are still decoding when either reaches the insert.
    const image = await photo(3000, 2000);
    const answers = await Promise.all([
      upload(id, image, someone.headers),
      upload(id, image, someone.headers),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    const refused = answers.find((r) => r.status === 400);
    expect(((await refused?.json()) as ErrorBody).error).toBe(TOO_MANY_PICTURES);
    expect(await countPictures(id)).toBe(PICTURE_MAX_FILES);
    // The refused upload's files are gone again: one picture and its thumbnail (JPEG and WebP).
    expect(readdirSync(picturesDir()).length).toBe(before + 4);
  });

  it.runIf(dialect === 'postgres')(
    'makes an upload wait for another one that holds the station until it commits',
    async () => {
      const db = server.ctx.database.db;
      const someone = await loggedInUser(server);
      const id = await buildStation(db, { userId: someone.id, name: 'Race_2' });
      await existingPictures(id, PICTURE_MAX_FILES - 1);
      const row = (n: string) => ({
        id: `${n}`.padEnd(16, '0'),
        stationId: id,
        size: 1,
        origName: `${n}.jpg`,
        type: 'image/jpeg',
        createdAt: Date.now(),
      });
      const config = server.ctx.config.database;
      if (config.kind !== 'postgres') throw new Error('postgres expected');
      // The other upload: the same statements as insertPictureIfRoom, its transaction still open.
      const other = new pg.Client({ connectionString: config.url });
      await other.connect();
      // Polls pg_stat_activity outside `other`'s transaction, which would keep its first reading
      // of that view until it ends (a poll made before the racing insert waits would repeat).
      const watcher = new pg.Client({ connectionString: config.url });
      await watcher.connect();
      try {
        await other.query('begin');
        await other.query('select id from stations where id = $1 for update', [id]);
        await other.query(
          `insert into station_pictures (id, station_id, status, size, orig_name, type, created_at)
           values ($1, $2, 0, 1, 'a.jpg', 'image/jpeg', 0)`,
          ['a000000000000000', id],
        );
        let settled: boolean | undefined;
        const racing = insertPictureIfRoom(server.ctx.database, row('b'), PICTURE_MAX_FILES).then(
          (stored) => (settled = stored),
        );
        // Until the racing insert either finished or waits for the other transaction's lock.
        await waitFor(async () => {
          if (settled !== undefined) return true;
          const { rows } = await watcher.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity
             where wait_event_type = 'Lock' and query like '%"stations"%for update%'
               and datname = current_database()`,
          );
          return (rows[0]?.n ?? 0) > 0 ? true : undefined;
        }, 20_000);
        await other.query('commit');
        expect(await racing).toBe(false);
      } finally {
        await other.end();
        await watcher.end();
      }
      expect(await countPictures(id)).toBe(PICTURE_MAX_FILES);
    },
    // A sequence of waits on another session's lock: room for a busy database, no timing asserted.
    30_000,
  );

  it('keeps at most 10 pictures per station', async () => {
    const id = await buildStation(server.ctx.database.db, { userId: owner.id, name: 'Gallery_2' });
    const small = await photo(64, 48);
    for (let i = 0; i < PICTURE_MAX_FILES; i += 1)
      expect((await upload(id, small)).status).toBe(200);
    const eleventh = await upload(id, small);
    expect(eleventh.status).toBe(400);
    expect(((await eleventh.json()) as ErrorBody).error).toBe(TOO_MANY_PICTURES);
  });

  it('removes a picture and its files', async () => {
    const shortId = await (await upload(stationId, await photo(300, 200))).text();
    expect(existsSync(join(picturesDir(), `${shortId}.webp`))).toBe(true);
    expect(existsSync(join(picturesDir(), `${shortId}_thumb.webp`))).toBe(true);
    const otherStation = await buildStation(server.ctx.database.db, {
      userId: owner.id,
      name: 'Gallery_3',
    });
    const wrongStation = await server.app.inject({
      method: 'DELETE',
      url: `/v1/station/${otherStation}/image/${shortId}`,
      headers: owner.headers,
    });
    expect(wrongStation.statusCode).toBe(404);
    const res = await server.app.inject({
      method: 'DELETE',
      url: `/v1/station/${stationId}/image/${shortId}`,
      headers: owner.headers,
    });
    expect(res.statusCode).toBe(200);
    for (const file of [
      `${shortId}.jpg`,
      `${shortId}_thumb.jpg`,
      `${shortId}.webp`,
      `${shortId}_thumb.webp`,
    ])
      expect(existsSync(join(picturesDir(), file)), file).toBe(false);
    const again = await server.app.inject({
      method: 'DELETE',
      url: `/v1/station/${stationId}/image/${shortId}`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('lets only the owner upload', async () => {
    const other = await loggedInUser(server);
    const image = await photo(64, 48);
    expect((await upload(stationId, image, other.headers)).status).toBe(403);
    expect((await upload(stationId, image, {})).status).toBe(401);
    expect((await upload(`Nobody_1@${owner.id}`, image)).status).toBe(404);
  });

  it('lists only approved pictures of existing stations, newest first, for the Home carousel', async () => {
    const db = server.ctx.database.db;
    const first = await buildStation(db, { userId: owner.id, name: 'Carousel_1' });
    const second = await buildStation(db, { userId: owner.id, name: 'Carousel_2' });
    const shots: string[] = [];
    for (const id of [first, second, first, second]) {
      shots.push(await (await upload(id, await photo(320, 240))).text());
      // Upload times are milliseconds apart at most; keep their order unambiguous.
      await new Promise((r) => setTimeout(r, 5));
    }
    const [a, b, c, d] = shots as [string, string, string, string];
    for (const id of [a, b, d]) await setPictureStatus(db, id, PICTURE_STATUS.approved);
    await setPictureStatus(db, c, PICTURE_STATUS.rejected);

    const list = async (query = '') => {
      const res = await server.app.inject({ method: 'GET', url: `/v1/pictures${query}` });
      expect(res.statusCode).toBe(200);
      return res
        .json<StationPhoto[]>()
        .filter((p) => p.stationId === first || p.stationId === second);
    };
    expect((await list()).map((p) => p.src)).toEqual([d, b, a].map((id) => `/pictures/${id}.jpg`));
    expect((await list())[0]).toMatchObject({
      stationId: second,
      thumb: `/pictures/${d}_thumb.jpg`,
    });
    const served = await fetch(`${server.url}${(await list())[0]?.thumb ?? ''}`);
    expect(served.status).toBe(200);

    const limited = await server.app.inject({ method: 'GET', url: '/v1/pictures?limit=1' });
    expect(limited.json<StationPhoto[]>()).toHaveLength(1);
    for (const bad of ['0', '25', 'x', '1.5']) {
      const res = await server.app.inject({ method: 'GET', url: `/v1/pictures?limit=${bad}` });
      expect(res.statusCode, bad).toBe(400);
    }

    const removed = await server.app.inject({
      method: 'DELETE',
      url: `/v1/station/${second}`,
      headers: owner.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await list()).map((p) => p.src)).toEqual([`/pictures/${a}.jpg`]);
  });
});

// A server per test: the overall upload ceiling (a burst of 60) is shared by every client.
describe.each(DIALECTS)('picture upload limits on %s', (dialect) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startTestServer(dialect, { listen: true, env: { TRUST_PROXY: '1' } });
  });
  afterEach(async () => {
    await server?.stop();
  });
  const upload = uploader(() => server);

  it('lets one account start 30 uploads an hour, from any number of addresses', async () => {
    const db = server.ctx.database.db;
    const busy = await loggedInUser(server);
    const calm = await loggedInUser(server);
    const busyStation = await buildStation(db, { userId: busy.id, name: 'Busy_1' });
    const calmStation = await buildStation(db, { userId: calm.id, name: 'Calm_1' });
    // Refused files cost a request each too: the budget is counted before the file is read.
    for (let i = 0; i < PICTURE_UPLOADS_PER_ACCOUNT.limit; i += 1) {
      expect((await upload(busyStation, 'not a picture', busy.headers)).status).toBe(415);
    }
    const over = await upload(busyStation, await photo(64, 48), busy.headers);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(60);
    expect(await activePictures(server, busyStation)).toBe(0);
    expect((await upload(calmStation, await photo(64, 48), calm.headers)).status).toBe(200);
  });

  it('lets one address make 60 upload requests in ten minutes', async () => {
    const db = server.ctx.database.db;
    const owner = await loggedInUser(server);
    const id = await buildStation(db, { userId: owner.id, name: 'Address_1' });
    const address = { 'x-forwarded-for': '192.0.2.7' };
    // Anonymous requests count too: the per-client limit runs before the session is looked at.
    for (let i = 0; i < 60; i += 1) {
      expect((await upload(id, 'x', address)).status).toBe(401);
    }
    const over = await upload(id, await photo(64, 48), { ...owner.headers, ...address });
    expect(over.status).toBe(429);
    expect(((await over.json()) as ErrorBody).error).toContain('your address');
  });
});

/** The station's pending and approved pictures, as storage holds them. */
async function activePictures(server: TestServer, stationId: string): Promise<number> {
  const rows = await server.ctx.database.db
    .selectFrom('stationPictures')
    .select('id')
    .where('stationId', '=', stationId)
    .where('status', '>=', 0)
    .execute();
  return rows.length;
}
