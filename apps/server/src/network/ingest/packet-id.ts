// Packet ids in the live network's shape: 24 hex digits, time-ordered (8 digits of epoch seconds,
// then 16 that make it unique). Drawing random bytes for each of thousands of packets a second is
// a measurable cost, so the unique part is a per-process random prefix and a counter.
import { randomBytes } from 'node:crypto';

const PROCESS_PART = randomBytes(3).toString('hex');
const COUNTER_SPACE = 2 ** 40;
let counter = Math.floor(Math.random() * COUNTER_SPACE);

export function newPacketId(nowMs: number): string {
  counter = (counter + 1) % COUNTER_SPACE;
  const seconds = Math.floor(nowMs / 1000)
    .toString(16)
    .padStart(8, '0');
  return seconds + PROCESS_PART + counter.toString(16).padStart(10, '0');
}
