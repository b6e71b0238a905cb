import { describe, expect, it } from 'vitest';
import { decodeFrame } from '../src/index';
import { capturedPackets } from './captured';
import { differences } from './json-compare';

const CAPTURED_PACKETS = 800;

describe('decoding the captured live packets', () => {
  it('reproduces the live parsed output of all 800 frames', () => {
    const packets = capturedPackets();
    expect(packets).toHaveLength(CAPTURED_PACKETS);
    const table = new Map<string, { satellite: string; frames: number; equal: number }>();
    const failures: string[] = [];
    for (const packet of packets) {
      const decoded = decodeFrame(packet.satellite, Buffer.from(packet.raw, 'base64'));
      // No `parsed` key (CRC error) or a null one: the live network did not decode it either.
      const diff = differences(decoded, packet.parsed ?? null);
      const row = table.get(packet.satellite) ?? {
        satellite: packet.satellite,
        frames: 0,
        equal: 0,
      };
      row.frames += 1;
      if (diff.length === 0) row.equal += 1;
      else failures.push(`${packet.satellite} ${packet.id}: ${diff.slice(0, 5).join('; ')}`);
      table.set(packet.satellite, row);
    }
    console.table([...table.values()]);
    expect(failures.slice(0, 20)).toEqual([]);
    const equal = [...table.values()].reduce((sum, row) => sum + row.equal, 0);
    expect(equal).toBe(CAPTURED_PACKETS);
  });

  it('returns JSON-ready objects: what it returns survives a JSON round trip unchanged', () => {
    for (const packet of capturedPackets().slice(0, 200)) {
      const decoded = decodeFrame(packet.satellite, Buffer.from(packet.raw, 'base64'));
      expect(JSON.parse(JSON.stringify(decoded))).toEqual(decoded);
    }
  });

  it('does not depend on the frame being a fresh buffer (Node pools small Buffers)', () => {
    const [first, second] = capturedPackets();
    if (first === undefined || second === undefined) throw new Error('no packets');
    const pooled = Buffer.from(second.raw, 'base64'); // shares an allocation pool with others
    const copy = new Uint8Array(pooled);
    expect(decodeFrame(second.satellite, pooled)).toEqual(decodeFrame(second.satellite, copy));
    expect(decodeFrame(first.satellite, Buffer.from(first.raw, 'base64'))).toEqual(first.parsed);
  });
});
