// Orbit path and footprint of the focused satellite. Both arrive from the propagator already cut
// at the antimeridian.
import type { LatLng as OrbitLatLng } from '@tinygs/orbit';
import * as L from 'leaflet';
import { PANES, paneRenderer } from '../panes';
import { ringOutlines } from '../geo';

export class FocusOverlay {
  private path: L.Polyline | null = null;
  private footprint: L.Polygon | null = null;
  private footprintEdge: L.Polyline | null = null;

  constructor(private readonly map: L.Map) {}

  show(path: OrbitLatLng[][], footprintRings: OrbitLatLng[][]): void {
    // Separate rings are separate polygons here, not an outer ring with holes.
    const footprint = asMultiPolygon(footprintRings);
    const renderer = paneRenderer(this.map, PANES.paths.name);
    const common = { renderer, pane: PANES.paths.name, interactive: false };
    if (this.path) this.path.setLatLngs(path);
    else
      this.path = L.polyline(path, {
        ...common,
        color: '#ff7043',
        weight: 2,
        dashArray: '6 4',
      }).addTo(this.map);
    // Filled without a stroke; the outline is drawn apart so the cut at +-180 shows no edge.
    const edge = ringOutlines(footprintRings);
    if (this.footprint) this.footprint.setLatLngs(footprint);
    else
      this.footprint = L.polygon(footprint, {
        ...common,
        stroke: false,
        fillColor: '#ffd54f',
        fillOpacity: 0.12,
      }).addTo(this.map);
    if (this.footprintEdge) this.footprintEdge.setLatLngs(edge);
    else
      this.footprintEdge = L.polyline(edge, { ...common, color: '#ffd54f', weight: 1.5 }).addTo(
        this.map,
      );
  }

  clear(): void {
    this.path?.remove();
    this.footprint?.remove();
    this.footprintEdge?.remove();
    this.path = null;
    this.footprint = null;
    this.footprintEdge = null;
  }
}

export function asMultiPolygon(rings: OrbitLatLng[][]): OrbitLatLng[][][] {
  return rings.map((ring) => [ring]);
}
