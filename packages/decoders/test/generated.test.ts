import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileAll, GENERATED_DIR } from '../scripts/compile';

describe('generated parsers', () => {
  it('are current: recompiling ksy/*.ksy gives the checked-in src/generated files', async () => {
    const files = await compileAll();
    const onDisk = (await readdir(GENERATED_DIR)).sort();
    expect(onDisk).toEqual(files.map((file) => file.name).sort());
    for (const file of files) {
      const current = await readFile(join(GENERATED_DIR, file.name), 'utf8');
      // On a mismatch: run `npm run build -w @tinygs/decoders` and commit the result.
      expect(current, file.name).toBe(file.content);
    }
  }, 60_000);

  it('start with a comment saying they are generated and must not be edited', async () => {
    for (const name of await readdir(GENERATED_DIR)) {
      const text = await readFile(join(GENERATED_DIR, name), 'utf8');
      expect(text.split('\n')[0]).toMatch(/^\/\/ GENERATED from ksy\/\w+\.ksy .*Do not edit/);
    }
  });
});
