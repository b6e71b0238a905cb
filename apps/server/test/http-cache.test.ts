// A hot list document is compressed in an encoding only once some client asks for it, and the
// list that replaces it is compressed, before it is served, in the encodings clients asked of
// the one before, and in no other.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PreparedBody } from '../src/public-api/http-cache';

const list = (n: number) =>
  JSON.stringify(
    Array.from({ length: 400 }, (_, i) => ({ name: `Station_${i}`, lastSeen: n + i })),
  );

describe('a hot list document', () => {
  it('compresses an encoding only when a client first asks for it', async () => {
    const doc = PreparedBody.of(list(1));
    expect(doc.encodings).toEqual([]);
    await Promise.all([doc.compressFor('gzip'), doc.compressFor('gzip'), doc.compressFor(null)]);
    expect(doc.encodings).toEqual(['gzip']);
    const { body, encoding } = doc.bytesFor('gzip');
    expect(encoding).toBe('gzip');
    expect(gunzipSync(body).toString()).toBe(list(1));
    expect(doc.bytesFor(null)).toEqual({ body: Buffer.from(list(1)), encoding: null });
  });

  it('compresses the list replacing it in the encodings asked of the one before, and only those', async () => {
    const first = PreparedBody.of(list(1));
    await first.compressFor('br');
    const second = await PreparedBody.replacing(first, list(2));
    expect(second.encodings).toEqual(['br']);
    expect(brotliDecompressSync(second.bytesFor('br').body).toString()).toBe(list(2));
    // The same bytes again: the same document, with what it holds.
    expect(await PreparedBody.replacing(second, list(2))).toBe(second);
  });
});
