// What a satellite team's .ksy turns into in `parsed`: checked on a small definition compiled
// here with the real compiler, using the conventions docs/DECODERS.md promises.
import compiler from 'kaitai-struct-compiler';
import KaitaiStream from 'kaitai-struct/KaitaiStream.js';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { declarationsFor } from '../scripts/declarations';
import { isKsySpec } from '../scripts/ksy-spec';
import { parseStruct, structToJson } from '../src/kaitai';

const KSY = `
meta:
  id: team_format
  endian: le
seq:
  - id: counter_raw
    type: u2
  - size: 1
  - id: board_temp
    type: f4
  - id: flags
    size: 2
instances:
  counter_half:
    value: counter_raw / 2.0
  label:
    value: '"beacon"'
    -ts-type: string
`;

async function compileInline(): Promise<new (io: KaitaiStream) => object> {
  const spec: unknown = parse(KSY);
  const files = await compiler.compile('javascript', spec, null, false);
  const code = files['TeamFormat.js'] ?? '';
  const exported: Record<string, unknown> = {};
  const define = Object.assign(
    (_dependencies: unknown, factory: (exports: object, runtime: unknown) => void) =>
      factory(exported, KaitaiStream),
    { amd: true },
  );
  new Function('define', code)(define);
  const TeamFormat = exported.TeamFormat;
  if (typeof TeamFormat !== 'function') throw new Error('no TeamFormat class');
  return TeamFormat as new (io: KaitaiStream) => object;
}

describe('Kaitai objects as parsed JSON', () => {
  it('keeps fields and instances, drops unnamed padding, turns bytes into arrays and NaN into null', async () => {
    const TeamFormat = await compileInline();
    const frame = Uint8Array.from([0x0a, 0x00, 0xee, 0x00, 0x00, 0xc0, 0x7f, 0x01, 0x02]);
    expect(structToJson(parseStruct(TeamFormat, frame))).toEqual({
      counterRaw: 10,
      boardTemp: null,
      flags: [1, 2],
      counterHalf: 5,
      label: 'beacon',
    });
  }, 30_000);

  it('declares value instances as number unless the .ksy names a -ts-type', () => {
    const spec: unknown = parse(KSY);
    if (!isKsySpec(spec)) throw new Error('bad ksy');
    const declarations = declarationsFor(spec, 'TeamFormat', '// generated');
    expect(declarations).toContain('readonly counterHalf: number;');
    expect(declarations).toContain('readonly label: string;');
    expect(declarations).toContain('readonly flags: Uint8Array;');
    expect(declarations).not.toContain('unnamed');
  });
});
