// The live packets captured in November 2022 (fixtures/live-packets-2022), for the tests that hold
// the decoders to them.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The path can be overridden for other checkouts.
const LIVE_DIR =
  process.env.TINYGS_LIVE_PACKETS_DIR ??
  fileURLToPath(new URL('../../../fixtures/live-packets-2022', import.meta.url));

export interface CapturedPacket {
  id: string;
  raw: string;
  satellite: string;
  parsed?: unknown;
}

export function capturedPackets(): CapturedPacket[] {
  return readdirSync(LIVE_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => {
      const body = JSON.parse(readFileSync(join(LIVE_DIR, name), 'utf8')) as {
        packets: CapturedPacket[];
      };
      return body.packets;
    });
}

export function frameOf(packet: CapturedPacket): Uint8Array {
  return Uint8Array.from(Buffer.from(packet.raw, 'base64'));
}
