// Conditional GET for catalogue answers: a strong ETag over the serialised body, 304 when the
// client already has it. The body is sent as the serialised string (not re-serialised).
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function sendCached(
  req: FastifyRequest,
  reply: FastifyReply,
  body: string,
  contentType = 'application/json; charset=utf-8',
  maxAgeSeconds = 60,
): FastifyReply {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  reply.header('etag', etag).header('cache-control', `public, max-age=${maxAgeSeconds}`);
  const sent = req.headers['if-none-match'];
  if (typeof sent === 'string' && sent.split(',').some((t) => t.trim() === etag)) {
    return reply.status(304).send();
  }
  return reply.type(contentType).send(body);
}

/** Sends an already serialised JSON body (a shared cached string) without serialising it again. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text);
}
