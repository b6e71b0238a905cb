// Secrets at rest: tokens are stored only as SHA-256 hashes; secrets the owner must read again
// (MQTT passwords, a new station's admin password until it is delivered) are encrypted with a key
// derived from the server secret (AES-256-GCM, random IV, authenticated).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function keyFrom(secret: string): Buffer {
  return createHash('sha256').update(`tinygs-secret-box:${secret}`).digest();
}

export function encryptSecret(plain: string, serverSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(serverSecret), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [
    'v1',
    iv.toString('base64url'),
    cipher.getAuthTag().toString('base64url'),
    body.toString('base64url'),
  ].join('.');
}

export function decryptSecret(box: string, serverSecret: string): string {
  const [version, iv, tag, body] = box.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined)
    throw new Error('malformed secret box');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    keyFrom(serverSecret),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(body, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** 24 hex digits, time-ordered (seconds timestamp + random), the shape of the live network's ids. */
export function newObjectId(nowMs = Date.now()): string {
  const seconds = Math.floor(nowMs / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + randomBytes(8).toString('hex');
}
