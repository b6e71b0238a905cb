// Station pictures as an owner uploads them from the Edit form: real multipart requests over HTTP,
// decoded and resized by the server, metadata gone, pending until approved.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PICTURE_MAX_FILES, type ErrorBody, type StationPhoto } from '@tinygs/contracts';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_AN_IMAGE, TOO_MANY_PICTURES } from '../src/accounts/pictures';
import { PICTURE_STATUS, setPictureStatus } from '../src/repositories/pictures';
import { loggedInUser, type LoggedIn } from './accounts-support';
import { buildStation } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

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

describe.each(DIALECTS)('station pictures on %s', (dialect) => {
  let server: TestServer;
  let owner: LoggedIn;
  let stationId: string;
  beforeAll(async () => {
    server = await startTestServer(dialect, { listen: true });
    owner = await loggedInUser(server);
    stationId = await buildStation(server.ctx.database.db, { userId: owner.id, name: 'Gallery_1' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  function upload(
    id: string,
    data: Buffer | string,
    headers: Record<string, string> = owner.headers,
    name = 'roof.jpg',
  ) {
    const form = new FormData();
    form.append('upload', new Blob([data]), name);
    return fetch(`${server.url}/v1/station/${id}/image`, { method: 'POST', headers, body: form });
  }
  const picturesDir = () => join(server.ctx.config.dataDir, 'pictures');

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

    const served = await fetch(`${server.url}/pictures/${shortId}.jpg`);
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
    );
    expect(text.status).toBe(400);
    expect(((await text.json()) as ErrorBody).error).toBe(NOT_AN_IMAGE);
    const empty = await fetch(`${server.url}/v1/station/${stationId}/image`, {
      method: 'POST',
      headers: owner.headers,
      body: new FormData(),
    });
    expect(empty.status).toBe(400);
  });

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
    expect(existsSync(join(picturesDir(), `${shortId}.jpg`))).toBe(false);
    expect(existsSync(join(picturesDir(), `${shortId}_thumb.jpg`))).toBe(false);
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
