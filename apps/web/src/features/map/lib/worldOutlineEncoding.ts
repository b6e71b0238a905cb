// The compact form of the world outline that ships with the app (worldOutlineData.ts). Every
// country ring, already split at the antimeridian, is kept as whole tenths of a degree (the
// precision of the 1:110m source). Neighbouring countries share their borders, so each ring is cut
// into arcs where the borders meet (TopoJSON-like) and every arc is written once: a later ring
// names it by index, forwards or reversed. A ring that is only an earlier one shifted (the copy of
// a ring reaching past 180 deg) names that ring.
//
// The text is one printable character per small number, read left to right:
//   - a number is zigzag-coded (0, -1, 1, -2, ...) in mixed radix: digits 0..63 end it, digits
//     64..83 carry 20 more values each and go on (least significant first);
//   - a new arc is its point differences ending with ARC_END; the first arc of a ring starts with
//     its first point, as the difference from the end of the ring before. Each difference is
//     multiplied by the sign of the last non-zero one on its axis in the arc (coasts keep their
//     direction, so most differences become positive and the text gzips smaller);
//   - REF k / REVERSED k: the arc k + 1 arcs back, forwards or reversed;
//   - COPY dx dy k: the ring k rings back, moved to start dx, dy from the end of the ring before;
//   - RING_END ends a ring.
// The 89 characters are printable ASCII without backslash, quotes, backtick and dollar, so the
// text is safe in a single-quoted JS string and minifies unchanged. For the 1:110m countries this
// is 11.4 KB gzip where the rings as plain delta text ("dx,dy,...;") were 18.4 KB, and it decodes
// to exactly the same rings as fast (numbers read from the bytes, arcs kept in Int32Arrays).

/** Tenths of a degree per degree. */
export const OUTLINE_STEPS_PER_DEGREE = 10;

const ALPHABET = Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i))
  .filter((c) => !'\\\'"`$'.includes(c))
  .join('');
/** Digits that end a number. */
const LAST_DIGITS = 64;
/** Digits that carry the number on. */
const MORE_DIGITS = 20;
const ARC_END = LAST_DIGITS + MORE_DIGITS;
const REF = ARC_END + 1;
const REVERSED = ARC_END + 2;
const COPY = ARC_END + 3;
const RING_END = ARC_END + 4;

/** Character code to its place in ALPHABET (-1 for anything else). */
const PLACE = new Int8Array(256).fill(-1);
/** Character code to the number a one-digit number is (0 for the other characters). */
const SMALL = new Int8Array(256);
/** 1 for the characters of one-digit numbers. */
const SMALL_DIGIT = new Uint8Array(256);
for (let i = 0; i < ALPHABET.length; i += 1) {
  PLACE[ALPHABET.charCodeAt(i)] = i;
  if (i < LAST_DIGITS) {
    SMALL[ALPHABET.charCodeAt(i)] = i % 2 === 1 ? -(i + 1) / 2 : i / 2;
    SMALL_DIGIT[ALPHABET.charCodeAt(i)] = 1;
  }
}

type Point = readonly [number, number];

/**
 * Rings of [lng, lat] as whole tenths of a degree. Consecutive points that round alike are dropped,
 * and so is a ring left with fewer than three points (an islet smaller than the precision).
 */
export function quantizeOutline(rings: readonly (readonly Point[])[]): [number, number][][] {
  const out: [number, number][][] = [];
  for (const ring of rings) {
    const points: [number, number][] = [];
    for (const [lng, lat] of ring) {
      const x = Math.round(lng * OUTLINE_STEPS_PER_DEGREE);
      const y = Math.round(lat * OUTLINE_STEPS_PER_DEGREE);
      const last = points[points.length - 1];
      if (!last || last[0] !== x || last[1] !== y) points.push([x, y]);
    }
    if (points.length >= 3) out.push(points);
  }
  return out;
}

function digits(value: number): string {
  let z = value < 0 ? -2 * value - 1 : 2 * value;
  let text = '';
  while (z >= LAST_DIGITS) {
    text += ALPHABET[LAST_DIGITS + (z % MORE_DIGITS)];
    z = Math.floor(z / MORE_DIGITS);
  }
  return text + ALPHABET[z];
}

const key = ([x, y]: Point): string => `${x},${y}`;
const same = (a: Point, b: Point): boolean => a[0] === b[0] && a[1] === b[1];

/**
 * Points where rings must be cut so that shared borders become the same arcs: a point met with
 * different neighbours in two places, the ends of an open ring and every ring's first point (so a
 * ring decodes starting where it started).
 */
function junctions(rings: readonly (readonly Point[])[]): Set<string> {
  const neighbours = new Map<string, string>();
  const found = new Set<string>();
  for (const ring of rings) {
    const first = ring[0];
    const last = ring[ring.length - 1];
    if (!first || !last) continue;
    found.add(key(first));
    const closed = same(first, last);
    const n = closed ? ring.length - 1 : ring.length;
    if (!closed) found.add(key(last));
    for (let i = 0; i < n; i += 1) {
      const before = ring[(i - 1 + n) % n];
      const point = ring[i];
      const after = ring[(i + 1) % n];
      if (!before || !point || !after) continue;
      const pair = [key(before), key(after)].sort().join(' ');
      const k = key(point);
      const seen = neighbours.get(k);
      if (seen === undefined) neighbours.set(k, pair);
      else if (seen !== pair) found.add(k);
    }
  }
  return found;
}

/** A ring cut at the junctions into arcs that each end where the next begins. */
function cut(ring: readonly Point[], at: Set<string>): Point[][] {
  const arcs: Point[][] = [];
  let arc: Point[] = [];
  ring.forEach((point, i) => {
    arc.push(point);
    if (i > 0 && i < ring.length - 1 && at.has(key(point))) {
      arcs.push(arc);
      arc = [point];
    }
  });
  arcs.push(arc);
  return arcs;
}

function newArc(arc: readonly Point[], from: Point | null): string {
  let text = '';
  let [px, py] = arc[0] ?? [0, 0];
  if (from) text += digits(px - from[0]) + digits(py - from[1]);
  let sx = 1;
  let sy = 1;
  for (const [x, y] of arc.slice(1)) {
    const dx = x - px;
    const dy = y - py;
    text += digits(dx * sx) + digits(dy * sy);
    if (dx !== 0) sx = Math.sign(dx);
    if (dy !== 0) sy = Math.sign(dy);
    px = x;
    py = y;
  }
  return text + ALPHABET[ARC_END];
}

/** Rings of [lng, lat] to the outline text (rounded as quantizeOutline rounds them). */
export function encodeOutline(rings: readonly (readonly Point[])[]): string {
  const quantized = quantizeOutline(rings);
  const at = junctions(quantized);
  const arcIndex = new Map<string, number>();
  const shapeIndex = new Map<string, number>();
  let pen: Point = [0, 0];
  let text = '';
  quantized.forEach((ring, r) => {
    const first = ring[0] ?? pen;
    const shape = ring.map(([x, y]) => `${x - first[0]},${y - first[1]}`).join(' ');
    const original = shapeIndex.get(shape);
    if (original !== undefined) {
      text += ALPHABET[COPY];
      text += digits(first[0] - pen[0]) + digits(first[1] - pen[1]) + digits(r - 1 - original);
    } else {
      shapeIndex.set(shape, r);
      cut(ring, at).forEach((arc, a) => {
        const forwards = arcIndex.get(arc.map(key).join(' '));
        const backwards = arcIndex.get(arc.map(key).reverse().join(' '));
        if (forwards !== undefined) {
          text += ALPHABET[REF] + digits(arcIndex.size - 1 - forwards);
        } else if (backwards !== undefined) {
          text += ALPHABET[REVERSED] + digits(arcIndex.size - 1 - backwards);
        } else {
          text += newArc(arc, a === 0 ? pen : null);
          arcIndex.set(arc.map(key).join(' '), arcIndex.size);
        }
      });
    }
    text += ALPHABET[RING_END];
    pen = ring[ring.length - 1] ?? pen;
  });
  return text;
}

/** The outline text back to rings of [lng, lat]. */
export function decodeOutline(text: string): [number, number][][] {
  const steps = OUTLINE_STEPS_PER_DEGREE;
  // Bytes read faster than charCodeAt calls (the text is ASCII).
  const bytes = new TextEncoder().encode(text);
  let i = 0;
  /** The number at i; i moves past it. */
  const read = (): number => {
    let z = 0;
    let scale = 1;
    for (;;) {
      const digit = PLACE[bytes[i++] ?? 0] ?? -1;
      if (digit < 0 || digit >= ARC_END) throw new Error(`world outline: no number at ${i - 1}`);
      if (digit < LAST_DIGITS) {
        z += digit * scale;
        return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
      }
      z += (digit - LAST_DIGITS) * scale;
      scale *= MORE_DIGITS;
    }
  };
  // The points of all arcs one after the other, in tenths of a degree (a new arc takes at least
  // one character a point); arc k is the points from arcStarts[k] to arcStarts[k + 1].
  const xs = new Int32Array(bytes.length + 1);
  const ys = new Int32Array(bytes.length + 1);
  const arcStarts = [0];
  let points = 0;
  const rings: [number, number][][] = [];
  let ring: [number, number][] = [];
  // The last point of the ring so far (or of the ring before), in tenths of a degree.
  let x = 0;
  let y = 0;
  const append = (arc: number, reversed: boolean): void => {
    const from = arcStarts[arc] ?? 0;
    const to = (arcStarts[arc + 1] ?? 0) - 1;
    for (let j = ring.length === 0 ? 0 : 1; j <= to - from; j += 1) {
      const k = reversed ? to - j : from + j;
      x = xs[k] ?? 0;
      y = ys[k] ?? 0;
      ring.push([x / steps, y / steps]);
    }
  };
  while (i < bytes.length) {
    const place = PLACE[bytes[i] ?? 0] ?? -1;
    if (place >= 0 && place < ARC_END) {
      // A new arc: from the ring's last point, or from the ring before for a ring's first arc.
      if (ring.length === 0) {
        x += read();
        y += read();
        ring.push([x / steps, y / steps]);
      }
      xs[points] = x;
      ys[points] = y;
      points += 1;
      let sx = 1;
      let sy = 1;
      while (PLACE[bytes[i] ?? 0] !== ARC_END) {
        // Most differences are one digit: looked up without a call.
        let code = bytes[i] ?? 0;
        const dx = (SMALL_DIGIT[code] === 1 ? (i++, SMALL[code] ?? 0) : read()) * sx;
        code = bytes[i] ?? 0;
        const dy = (SMALL_DIGIT[code] === 1 ? (i++, SMALL[code] ?? 0) : read()) * sy;
        if (dx !== 0) sx = dx < 0 ? -1 : 1;
        if (dy !== 0) sy = dy < 0 ? -1 : 1;
        x += dx;
        y += dy;
        xs[points] = x;
        ys[points] = y;
        points += 1;
        ring.push([x / steps, y / steps]);
      }
      i += 1;
      arcStarts.push(points);
    } else if (place === REF || place === REVERSED) {
      i += 1;
      const arc = arcStarts.length - 2 - read();
      if (arc < 0 || arc >= arcStarts.length - 1) {
        throw new Error(`world outline: no such arc before ${i}`);
      }
      append(arc, place === REVERSED);
    } else if (place === COPY) {
      i += 1;
      const startX = x + read();
      const startY = y + read();
      const original = rings[rings.length - 1 - read()];
      if (!original) throw new Error(`world outline: no such ring before ${i}`);
      // Back to whole tenths (exact: every coordinate is a whole number of tenths).
      const [lng = 0, lat = 0] = original[0] ?? [];
      const dx = startX - Math.round(lng * steps);
      const dy = startY - Math.round(lat * steps);
      for (const point of original) {
        x = Math.round(point[0] * steps) + dx;
        y = Math.round(point[1] * steps) + dy;
        ring.push([x / steps, y / steps]);
      }
    } else if (place === RING_END) {
      i += 1;
      rings.push(ring);
      ring = [];
    } else {
      throw new Error(`world outline: unexpected character at ${i}`);
    }
  }
  return rings;
}
