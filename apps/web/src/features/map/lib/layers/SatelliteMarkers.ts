// Satellites as the satellite icon, painted on their own canvas pane: moving 300 of them every 5 s
// repaints one small canvas and never touches React.
import type { WorldmapSatellite } from '@tinygs/contracts';
import type * as L from 'leaflet';
import { SATELLITE_SHAPE } from '../../../../components/icons/iconShapes';
import { PANES, paneRenderer } from '../panes';
import { makeSprite, SpriteMarker, type Sprite } from './SpriteMarker';

/** CSS px */
const ICON_SIZE = 18;
const FOCUS_ICON_SIZE = 26;

// Circles where no canvas 2D context exists to draw the icons.
const STYLE: L.CircleMarkerOptions = {
  radius: 5,
  color: '#1a1a1a',
  weight: 1,
  fillColor: '#ffd54f',
  fillOpacity: 1,
};
const FOCUS_STYLE: L.CircleMarkerOptions = {
  radius: 7,
  color: '#ffffff',
  weight: 2,
  fillColor: '#ff7043',
  fillOpacity: 1,
};

interface Sprites {
  normal: Sprite | null;
  focused: Sprite | null;
}

let sprites: Sprites | null = null;
/** Drawn once per page, on first use (the white-filled light variant reads on imagery and tiles). */
function satelliteSprites(): Sprites {
  sprites ??= {
    normal: makeSprite(SATELLITE_SHAPE, ICON_SIZE, 'light'),
    focused: makeSprite(SATELLITE_SHAPE, FOCUS_ICON_SIZE, 'light', '#ff7043'),
  };
  return sprites;
}

export class SatelliteMarkers {
  private readonly markers: (SpriteMarker | null)[];
  private readonly indexByName = new Map<string, number>();
  private focused = -1;

  constructor(
    private readonly map: L.Map,
    private readonly satellites: readonly WorldmapSatellite[],
    private readonly onClick: (index: number) => void,
  ) {
    this.markers = satellites.map(() => null);
    satellites.forEach((s, i) => this.indexByName.set(s.name, i));
  }

  indexOf(name: string): number {
    return this.indexByName.get(name) ?? -1;
  }

  position(index: number): L.LatLng | null {
    return this.markers[index]?.getLatLng() ?? null;
  }

  /** Whether a satellite marker is drawn under a container point. */
  covers(containerPoint: L.Point): boolean {
    const slop = FOCUS_ICON_SIZE / 2 + 2;
    return this.markers.some(
      (m) =>
        m !== null &&
        this.map.latLngToContainerPoint(m.getLatLng()).distanceTo(containerPoint) <= slop,
    );
  }

  /** coords: lat, lng, alt per satellite; NaN hides the satellite. */
  update(coords: Float64Array, focused: number): void {
    const renderer = paneRenderer(this.map, PANES.satellites.name);
    this.satellites.forEach((sat, i) => {
      const lat = coords[i * 3] ?? Number.NaN;
      const lng = coords[i * 3 + 1] ?? Number.NaN;
      let marker = this.markers[i] ?? null;
      if (Number.isNaN(lat) || Number.isNaN(lng)) {
        marker?.remove();
        this.markers[i] = null;
        return;
      }
      if (!marker) {
        marker = new SpriteMarker([lat, lng], {
          ...STYLE,
          renderer,
          pane: PANES.satellites.name,
          bubblingMouseEvents: false,
        }).setSprite(satelliteSprites().normal);
        marker.bindTooltip(sat.displayName, { direction: 'top', offset: [0, -ICON_SIZE / 2] });
        marker.on('click', () => this.onClick(i));
        marker.addTo(this.map);
        this.markers[i] = marker;
      } else {
        marker.setLatLng([lat, lng]);
      }
    });
    this.setFocus(focused);
  }

  setFocus(index: number): void {
    if (index === this.focused) return;
    const { normal, focused } = satelliteSprites();
    this.markers[this.focused]
      ?.setStyle(STYLE)
      .setRadius(STYLE.radius ?? 5)
      .setSprite(normal);
    this.focused = index;
    const marker = this.markers[index];
    if (marker) {
      marker
        .setStyle(FOCUS_STYLE)
        .setRadius(FOCUS_STYLE.radius ?? 7)
        .setSprite(focused);
      marker.bringToFront();
    }
  }

  remove(): void {
    for (const m of this.markers) m?.remove();
  }
}
