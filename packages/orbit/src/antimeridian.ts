/** A map point: latitude and longitude in degrees (the order Leaflet uses). */
export type LatLng = [latDeg: number, lngDeg: number];

/**
 * Builds polylines from points with longitudes in [-180, 180], cutting wherever a step crosses the
 * antimeridian (|delta lng| > 180): the crossing latitude is interpolated and the line ends on one
 * edge of the map and continues from the other, so no segment jumps across the map.
 */
export class AntimeridianPolylines {
  readonly lines: LatLng[][] = [];
  private current: LatLng[] = [];

  add(latDeg: number, lngDeg: number): void {
    const previous = this.current[this.current.length - 1];
    if (previous) {
      const [previousLat, previousLng] = previous;
      const deltaLng = lngDeg - previousLng;
      if (deltaLng > 180 || deltaLng < -180) {
        // Going east across +180 the line leaves at +180 and comes back in at -180, and vice versa.
        const exitLng = deltaLng < 0 ? 180 : -180;
        const unwrappedLng = lngDeg + (deltaLng < 0 ? 360 : -360);
        const fraction = (exitLng - previousLng) / (unwrappedLng - previousLng);
        const crossingLat = previousLat + fraction * (latDeg - previousLat);
        if (previousLng !== exitLng) this.current.push([crossingLat, exitLng]);
        this.breakLine();
        if (lngDeg !== -exitLng) this.current.push([crossingLat, -exitLng]);
      }
    }
    this.current.push([latDeg, lngDeg]);
  }

  /** Ends the current polyline without joining it to the next point (e.g. a propagation gap). */
  breakLine(): void {
    if (this.current.length > 0) this.lines.push(this.current);
    this.current = [];
  }

  finish(): LatLng[][] {
    this.breakLine();
    return this.lines;
  }
}

/** Splits a polyline (longitudes in [-180, 180]) at the antimeridian; see AntimeridianPolylines. */
export function splitAtAntimeridian(points: readonly (readonly [number, number])[]): LatLng[][] {
  const builder = new AntimeridianPolylines();
  for (const [latDeg, lngDeg] of points) builder.add(latDeg, lngDeg);
  return builder.finish();
}

/** Longitude wrapped into [-180, 180). */
export function normalizeLngDeg(lngDeg: number): number {
  return lngDeg - 360 * Math.floor((lngDeg + 180) / 360);
}
