// `npm run build -w @tinygs/decoders`: regenerates src/generated/ from ksy/*.ksy and removes
// generated files whose .ksy is gone.
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compileAll, GENERATED_DIR } from './compile';

const files = await compileAll();
await mkdir(GENERATED_DIR, { recursive: true });
const wanted = new Set(files.map((file) => file.name));
for (const name of await readdir(GENERATED_DIR)) {
  if (!wanted.has(name)) {
    await rm(join(GENERATED_DIR, name));
    console.log(`removed src/generated/${name}`);
  }
}
let changed = 0;
for (const file of files) {
  const path = join(GENERATED_DIR, file.name);
  const current = await readFile(path, 'utf8').catch(() => null);
  if (current === file.content) continue;
  await writeFile(path, file.content);
  changed += 1;
  console.log(`wrote src/generated/${file.name}`);
}
console.log(`${files.length} generated files, ${changed} changed`);
