// The element-set documents sources answer with, read as CelesTrak and SatNOGS DB write them
// (fixtures/celestrak, fixtures/satnogs-db): both CelesTrak forms give the same TLE lines.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseTle } from '@tinygs/orbit';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config';
import { DocumentFormatError, readElementDocument } from '../src/elements/formats';

const read = (path: string) => readFileSync(join(REPO_ROOT, 'fixtures', path), 'utf8');

describe('element-set documents', () => {
  it('reads CelesTrak GP as TLE text and as OMM JSON into the same valid sets', () => {
    const text = readElementDocument(read('celestrak/gp-tinygs.tle'));
    const omm = readElementDocument(read('celestrak/gp-tinygs.json'));
    expect(text.format).toBe('tle');
    expect(omm.format).toBe('omm');
    expect(text.sets.map((s) => s.norad)).toEqual([46494, 51014, 48082, 25544]);
    expect(omm.sets).toEqual(text.sets);
    expect(text.sets[0]?.lines[0]).toBe('NORBY');
    for (const set of text.sets) expect(parseTle(set.lines).noradId).toBe(set.norad);
  });

  it('reads SatNOGS DB /api/tle/ without the 0 prefix of tle0', () => {
    const doc = readElementDocument(read('satnogs-db/tle.json'));
    expect(doc.format).toBe('satnogs');
    expect(doc.sets.map((s) => [s.norad, s.lines[0]])).toEqual([
      [46494, 'NORBI'],
      [53106, 'GREENCUBE'],
      [47438, 'UVSQ-SAT'],
      [25544, 'ISS (ZARYA)'],
    ]);
  });

  it('reads 3LE titles, two-line sets and Alpha-5 numbers, and skips stray lines', () => {
    const [, l1, l2] = readElementDocument(read('celestrak/gp-tinygs.tle')).sets[0]!.lines;
    const alpha5 = `1 A0001${l1.slice(7)}`;
    const doc = readElementDocument(
      ['0 NORBY', l1, l2, 'a stray line', l1, l2, 'ALPHA', alpha5, `2 A0001${l2.slice(7)}`].join(
        '\n',
      ),
    );
    expect(doc.sets.map((s) => [s.norad, s.lines[0]])).toEqual([
      [46494, 'NORBY'],
      [46494, 'a stray line'],
      [100001, 'ALPHA'],
    ]);
    expect(readElementDocument('No GP data found').sets).toEqual([]);
  });

  it('refuses JSON that is not an element-set document, and OMM records that are not SGP4 sets', () => {
    expect(() => readElementDocument('{"detail":"Not found."}')).toThrow(DocumentFormatError);
    expect(() => readElementDocument('[1,2]')).toThrow(DocumentFormatError);
    expect(() => readElementDocument('[{"tle1": "x"')).toThrow(/not valid JSON/);
    const omm = JSON.parse(read('celestrak/gp-tinygs.json')) as Record<string, unknown>[];
    const doc = readElementDocument(JSON.stringify([{ ...omm[0], EPHEMERIS_TYPE: 4 }, omm[1]]));
    expect(doc.sets.map((s) => s.norad)).toEqual([51014]);
    expect(doc.rejected).toEqual([
      { norad: 46494, reason: expect.stringMatching(/EPHEMERIS_TYPE 4/) },
    ]);
  });
});
