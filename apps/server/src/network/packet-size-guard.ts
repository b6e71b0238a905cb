// Enforces the firmware's MQTT packet limit on the raw connection: the MQTT fixed header announces
// each packet's length before its body arrives, so an oversized packet is refused before the
// broker buffers it. The broker parses the same bytes; this only reads headers and skips bodies.
import type { Duplex } from 'node:stream';

const enum State {
  Type,
  Length,
  Body,
}

/** Calls `onOversize` once (then stops watching) when a packet above `maxBytes` is announced. */
export function guardPacketSize(
  conn: Duplex,
  maxBytes: number,
  onOversize: (announcedBytes: number) => void,
): void {
  let state = State.Type;
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  let bodyLeft = 0;
  const watch = (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length) {
      if (state === State.Body) {
        const take = Math.min(bodyLeft, chunk.length - i);
        bodyLeft -= take;
        i += take;
        if (bodyLeft === 0) state = State.Type;
      } else if (state === State.Type) {
        i += 1;
        state = State.Length;
        length = 0;
        multiplier = 1;
        lengthBytes = 0;
      } else {
        const byte = chunk[i] ?? 0;
        i += 1;
        lengthBytes += 1;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        const total = 1 + lengthBytes + length;
        if (total > maxBytes || (lengthBytes >= 4 && byte & 0x80)) {
          conn.off('data', watch);
          onOversize(total);
          return;
        }
        if ((byte & 0x80) === 0) {
          bodyLeft = length;
          state = length > 0 ? State.Body : State.Type;
        }
      }
    }
  };
  conn.on('data', watch);
}
