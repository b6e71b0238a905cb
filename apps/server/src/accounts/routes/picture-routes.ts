// Station pictures: upload (multipart form field `upload`) and removal, owner only; the picture
// files under /pictures/, public once approved and before that only to the station's owner, as
// WebP to browsers that accept it and as JPEG otherwise, at the same URL.
import { mkdirSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  ErrorBodySchema,
  MessageResponseSchema,
  PICTURE_MAX_BYTES,
  PictureParamsSchema,
  PictureUploadResponseSchema,
  RecentPicturesQuerySchema,
  RecentPicturesResponseSchema,
  StationIdParamsSchema,
} from '@tinygs/contracts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RouteModule } from '../../http/route-module';
import type { AppContext } from '../../context';
import { sessionUser } from '../../http/auth';
import { badRequest, HttpError, notFound } from '../../http/errors';
import {
  findPictureAccess,
  listRecentApprovedPictures,
  PICTURE_STATUS,
  pictureFiles,
  pictureSrc,
  pictureThumbSrc,
} from '../../repositories/pictures';
import { limitRequests } from '../../http/limits';
import { addPicture, picturesDir, removePicture } from '../pictures';
import { enforceLimit, WindowLimiter } from '../rate-limit';
import { authErrors, SessionHeadersSchema } from './common';
import { ownedStation, ownStationFirst } from './guards';

const TOO_LARGE = 'The picture must be at most 3 MB.';
const NO_FILE = 'Attach a picture in the form field "upload".';
const TOO_MANY_UPLOADS =
  'You have uploaded many pictures in the last hour. Please try again later.';

/** Uploads one account may start per hour, whichever address they come from. */
export const PICTURE_UPLOADS_PER_ACCOUNT = { limit: 30, windowMs: 60 * 60_000 } as const;

const PICTURE_FILE = /^\/pictures\/([0-9a-f]{16})(_thumb)?\.jpg$/;

/** Longer Accept headers are not parsed (a browser's are under 200 characters): they get JPEG. */
export const ACCEPT_MAX_CHARS = 1024;

/**
 * Whether an Accept header names image/webp with a quality above zero. Wildcards do not count:
 * browsers that cannot show WebP send image/* and *\/* too.
 */
export function acceptsWebp(accept: string | undefined): boolean {
  if (!accept || accept.length > ACCEPT_MAX_CHARS) return false;
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';');
    if (type.trim().toLowerCase() !== 'image/webp') return false;
    const q = params.map((p) => p.split('=')).find(([name]) => name?.trim().toLowerCase() === 'q');
    return q === undefined || Number(q[1]?.trim() || 0) > 0;
  });
}

/**
 * Who may fetch a picture file: anyone once it is approved, only the station's owner (by session
 * headers) while it is pending, nobody after rejection. Everything else is 404 without touching
 * the disk, so a pending picture's existence is not revealed either.
 */
function pictureAccess(ctx: AppContext) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const match = PICTURE_FILE.exec(req.url.split('?')[0] ?? '');
    const picture = match?.[1] ? await findPictureAccess(ctx.database.db, match[1]) : undefined;
    if (picture?.status === PICTURE_STATUS.approved) {
      void reply.header('cache-control', 'public, max-age=0');
      return;
    }
    if (
      picture?.status === PICTURE_STATUS.pending &&
      (await sessionUser(ctx, req))?.userId === picture.ownerId
    ) {
      void reply.header('cache-control', 'private, no-store');
      return;
    }
    throw notFound('Picture not found');
  };
}

function isTooLarge(err: unknown): boolean {
  return (
    err instanceof Error &&
    'code' in err &&
    (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT')
  );
}

export const pictureRoutes: RouteModule = async (app, ctx) => {
  const ownerFirst = ownStationFirst(ctx);
  const uploadsPerAccount = new WindowLimiter(
    PICTURE_UPLOADS_PER_ACCOUNT.limit,
    PICTURE_UPLOADS_PER_ACCOUNT.windowMs,
  );

  await app.register(async (child) => {
    child.addHook('onRequest', pictureAccess(ctx));
    const root = picturesDir(ctx);
    mkdirSync(root, { recursive: true });
    // reply.sendFile only (in this context): ETag, Last-Modified, conditional requests and HEAD.
    await child.register(fastifyStatic, { root, serve: false, cacheControl: false });
    // Only URLs pictureAccess let through reach the handler: `<id>.jpg` and `<id>_thumb.jpg`. The
    // WebP files have no URL of their own (a direct request for `<id>.webp` is 404): one URL per
    // picture, the one the API gives, whatever the browser.
    child.get('/pictures/:file', { schema: { hide: true } }, async (req, reply) => {
      const [, id, thumb] = PICTURE_FILE.exec(req.url.split('?')[0] ?? '') ?? [];
      if (!id) throw notFound('Picture not found');
      const files = pictureFiles(id);
      const [jpeg, webp] = thumb ? [files.thumb, files.thumbWebp] : [files.full, files.fullWebp];
      // Caches must keep the two answers apart.
      void reply.header('vary', 'Accept');
      const sendWebp =
        acceptsWebp(req.headers.accept) &&
        (await access(join(root, webp)).then(
          () => true,
          () => false,
        ));
      return reply.sendFile(sendWebp ? webp : jpeg);
    });
  });

  // Multipart parsing is registered only for these routes (an encapsulated child context).
  await app.register(async (child) => {
    const scoped = child.withTypeProvider<ZodTypeProvider>();
    await scoped.register(multipart, {
      limits: { fileSize: PICTURE_MAX_BYTES, files: 1, fields: 10, parts: 20, fieldSize: 10_000 },
    });

    scoped.post(
      '/v1/station/:id/image',
      {
        // Decoding a picture is the costliest thing a user can ask for: bounded per client and
        // overall before the upload is read.
        ...limitRequests({
          perClient: 60,
          windowMs: 10 * 60_000,
          global: { capacity: 60, perSecond: 2 },
        }),
        preValidation: ownerFirst,
        schema: {
          tags: ['stations'],
          summary:
            'Upload a station picture (multipart field "upload": JPEG, PNG or WebP, at most 3 MB and 25 megapixels, 10 per station); answers its short id as text',
          consumes: ['multipart/form-data'],
          headers: SessionHeadersSchema,
          params: StationIdParamsSchema,
          response: {
            200: PictureUploadResponseSchema,
            ...authErrors,
            413: ErrorBodySchema,
            415: ErrorBodySchema,
          },
        },
      },
      async (req, reply) => {
        const station = await ownedStation(ctx, req, req.params.id);
        // Counted before the file is read: a refused or broken upload costs as much as a good one.
        enforceLimit(reply, uploadsPerAccount, station.userId, TOO_MANY_UPLOADS);
        let upload: { data: Buffer; filename: string } | null = null;
        try {
          const file = await req.file();
          if (file) upload = { data: await file.toBuffer(), filename: file.filename };
        } catch (err) {
          if (isTooLarge(err)) throw new HttpError(413, TOO_LARGE);
          throw err;
        }
        if (!upload || upload.data.length === 0) throw badRequest(NO_FILE);
        const shortId = await addPicture(ctx, station, upload);
        return reply.type('text/plain; charset=utf-8').send(shortId);
      },
    );
  });

  app.get(
    '/v1/pictures',
    {
      schema: {
        tags: ['stations'],
        summary: 'The newest approved station pictures (the Home carousel), newest first',
        querystring: RecentPicturesQuerySchema,
        response: { 200: RecentPicturesResponseSchema, 400: ErrorBodySchema },
      },
    },
    async (req, reply) => {
      const rows = await listRecentApprovedPictures(ctx.database.db, req.query.limit);
      // Approval is an operator's action, so a minute of staleness is harmless.
      void reply.header('cache-control', 'public, max-age=60');
      return rows.map((row) => ({
        stationId: row.stationId,
        src: pictureSrc(row.id),
        thumb: pictureThumbSrc(row.id),
        createdAt: row.createdAt,
      }));
    },
  );

  app.delete(
    '/v1/station/:id/image/:pictureId',
    {
      preValidation: ownerFirst,
      schema: {
        tags: ['stations'],
        summary: 'Remove a station picture',
        headers: SessionHeadersSchema,
        params: PictureParamsSchema,
        response: { 200: MessageResponseSchema, ...authErrors },
      },
    },
    async (req) => {
      const station = await ownedStation(ctx, req, req.params.id);
      await removePicture(ctx, station, req.params.pictureId);
      return { message: 'Picture removed' };
    },
  );
};
