// The compact form of the world outline that ships with the app (worldOutlineData.ts): every
// country ring, already split at the antimeridian, as whole tenths of a degree, each point the
// difference from the one before ("lng,lat,lng,lat..."), rings separated by ";". A tenth of a
// degree is the precision of the 1:110m source; the text is half the gzip size of the TopoJSON.

/** Tenths of a degree per degree. */
export const OUTLINE_STEPS_PER_DEGREE = 10;

/**
 * Rings of [lng, lat] to the delta text. Consecutive points that round alike are dropped, and so is
 * a ring left with fewer than three points (an islet smaller than the precision).
 */
export function encodeOutline(rings: readonly (readonly (readonly [number, number])[])[]): string {
  return rings
    .map((ring) => {
      const out: number[] = [];
      let px = 0;
      let py = 0;
      for (const [lng, lat] of ring) {
        const x = Math.round(lng * OUTLINE_STEPS_PER_DEGREE);
        const y = Math.round(lat * OUTLINE_STEPS_PER_DEGREE);
        if (out.length > 0 && x === px && y === py) continue;
        out.push(x - px, y - py);
        px = x;
        py = y;
      }
      return out.length >= 6 ? out.join(',') : '';
    })
    .filter((text) => text !== '')
    .join(';');
}

/** The delta text back to rings of [lng, lat]. */
export function decodeOutline(text: string): [number, number][][] {
  return text.split(';').map((part) => {
    const values = part.split(',');
    const ring: [number, number][] = [];
    let x = 0;
    let y = 0;
    for (let i = 0; i + 1 < values.length; i += 2) {
      x += Number(values[i]);
      y += Number(values[i + 1]);
      ring.push([x / OUTLINE_STEPS_PER_DEGREE, y / OUTLINE_STEPS_PER_DEGREE]);
    }
    return ring;
  });
}
