// Station pictures: upload (multipart form field `upload`) and removal, owner only.
import multipart from '@fastify/multipart';
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
import { badRequest, HttpError } from '../../http/errors';
import {
  listRecentApprovedPictures,
  pictureSrc,
  pictureThumbSrc,
} from '../../repositories/pictures';
import { limitRequests } from '../../http/limits';
import { addPicture, removePicture } from '../pictures';
import { authErrors, SessionHeadersSchema } from './common';
import { ownedStation, ownStationFirst } from './guards';

const TOO_LARGE = 'The picture must be at most 3 MB.';
const NO_FILE = 'Attach a picture in the form field "upload".';

function isTooLarge(err: unknown): boolean {
  return (
    err instanceof Error &&
    'code' in err &&
    (err.code === 'FST_REQ_FILE_TOO_LARGE' || err.code === 'FST_FILES_LIMIT')
  );
}

export const pictureRoutes: RouteModule = async (app, ctx) => {
  const ownerFirst = ownStationFirst(ctx);

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
            'Upload a station picture (multipart field "upload", at most 3 MB, 10 per station); answers its short id as text',
          consumes: ['multipart/form-data'],
          headers: SessionHeadersSchema,
          params: StationIdParamsSchema,
          response: { 200: PictureUploadResponseSchema, ...authErrors, 413: ErrorBodySchema },
        },
      },
      async (req, reply) => {
        const station = await ownedStation(ctx, req, req.params.id);
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
