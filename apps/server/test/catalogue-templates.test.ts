// Catalogue files are data from outside: the web template an entry names is read from inside the
// catalogue's folders only, never from wherever the name leads (docs/SECURITY.md).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue, readTemplateWithin, TemplateOutsideError } from '../src/seed/catalogue';

describe('catalogue templates', () => {
  const base = mkdtempSync(join(tmpdir(), 'tinygs-templates-'));
  const seed = join(base, 'catalogue');
  const templates = join(seed, 'templates');

  beforeAll(() => {
    // base/data/server-secret, as a server's DATA_DIR holds it, and a catalogue beside it.
    mkdirSync(join(base, 'data'));
    writeFileSync(join(base, 'data', 'server-secret'), 'the-server-secret');
    mkdirSync(join(seed, 'satellites'), { recursive: true });
    mkdirSync(join(templates, 'sub'), { recursive: true });
    writeFileSync(join(templates, 'plain.liquid'), 'plain {{ x }}');
    writeFileSync(join(templates, 'sub', 'nested.liquid'), 'nested');
    symlinkSync(join(base, 'data', 'server-secret'), join(templates, 'escape.liquid'));
    symlinkSync(join(base, 'data'), join(templates, 'data-dir'));
    symlinkSync(join(templates, 'plain.liquid'), join(templates, 'alias.liquid'));
  });
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('reads a template inside the folder, nested or through a link that stays inside', () => {
    expect(readTemplateWithin([templates], 'plain.liquid')).toBe('plain {{ x }}');
    expect(readTemplateWithin([templates], 'sub/nested.liquid')).toBe('nested');
    expect(readTemplateWithin([templates], 'sub/../plain.liquid')).toBe('plain {{ x }}');
    expect(readTemplateWithin([templates], 'alias.liquid')).toBe('plain {{ x }}');
    expect(readTemplateWithin([templates], 'missing.liquid')).toBeNull();
    expect(readTemplateWithin([join(base, 'nowhere'), templates], 'plain.liquid')).toBe(
      'plain {{ x }}',
    );
  });

  it.each([
    ['a path that climbs out', '../../data/server-secret'],
    ['a path that climbs out to no file', '../../data/nothing-here'],
    ['an absolute path', join(base, 'data', 'server-secret')],
    ['a link to a file outside', 'escape.liquid'],
    ['a path through a linked folder outside', 'data-dir/server-secret'],
    ['the folder itself', '.'],
  ])('refuses %s', (_what, name) => {
    expect(() => readTemplateWithin([templates], name)).toThrow(TemplateOutsideError);
    expect(() => readTemplateWithin([templates], name)).toThrow(
      /outside the catalogue: templates are read only from inside the imported folder or the seed/,
    );
  });

  it('refuses a seed entry naming a template outside, without reading it', () => {
    const entry = {
      name: 'Leaky-1',
      displayName: 'Leaky 1',
      norad: null,
      status: 'Future',
      configurations: [{ mode: 'LoRa', freq: 436.1 }],
      webTemplate: '../../data/server-secret',
    };
    writeFileSync(join(seed, 'satellites', 'leaky.json'), JSON.stringify(entry));
    expect(() => readCatalogue(seed)).toThrow(TemplateOutsideError);
    writeFileSync(
      join(seed, 'satellites', 'leaky.json'),
      JSON.stringify({ ...entry, webTemplate: 'plain.liquid' }),
    );
    expect(readCatalogue(seed).map((i) => i.template)).toEqual(['plain {{ x }}']);
  });
});
