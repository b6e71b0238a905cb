// The strong ETag of a document's bytes (or text): a SHA-1 digest, quoted. The same function runs
// wherever a document is finished (the event loop, SQLite's read thread), so one document always
// has one ETag.
import { createHash } from 'node:crypto';

export function strongEtag(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
