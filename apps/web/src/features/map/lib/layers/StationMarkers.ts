// Up to tens of thousands of stations as canvas circle markers, diffed by station id so a live
// station-list event only touches markers whose position or status changed.
//
// Leaflet hit-tests canvas layers only on the top-most canvas, and the satellites canvas sits
// above this one, so station markers are not Leaflet-interactive: clicks and hovers are matched
// here against projected pixel positions cached per zoom level (10,000 stations in well under a
// millisecond).
import { formatStationId, type StationListItem } from '@tinygs/contracts';
import * as L from 'leaflet';
import { STATION_SHAPE } from '../../../../components/icons/iconShapes';
import { PANES, paneRenderer } from '../panes';
import type { StationDelta } from '../stationList';
import { makeSprite, SpriteMarker, type Sprite } from './SpriteMarker';

const ONLINE: L.CircleMarkerOptions = { color: '#0d3b12', fillColor: '#4caf50' };
const OFFLINE: L.CircleMarkerOptions = { color: '#333333', fillColor: '#9e9e9e' };
const SELECTED: L.CircleMarkerOptions = { color: '#ffffff', fillColor: '#29b6f6' };
/** online, and its satellite is pinging right now (SPEC.md section 4) */
const RECEIVING: L.CircleMarkerOptions = { color: '#4a2c00', fillColor: '#ffb300' };
const HIT_SLOP_PX = 3;
/** Zoomed in this far the stations show as the station icon; further out they stay dots. */
export const STATION_ICON_MIN_ZOOM = 5;
/** CSS px */
const STATION_ICON_SIZE = 18;

type MarkerState = 'online' | 'offline' | 'receiving' | 'selected';
const STYLES: Record<MarkerState, L.CircleMarkerOptions> = {
  online: ONLINE,
  offline: OFFLINE,
  receiving: RECEIVING,
  selected: SELECTED,
};

let sprites: Record<MarkerState, Sprite | null> | null = null;
/** The station icon filled with each state's colour, drawn once per page. */
function stationSprites(): Record<MarkerState, Sprite | null> {
  const draw = (state: MarkerState) =>
    makeSprite(STATION_SHAPE, STATION_ICON_SIZE, 'light', STYLES[state].fillColor);
  sprites ??= {
    online: draw('online'),
    offline: draw('offline'),
    receiving: draw('receiving'),
    selected: draw('selected'),
  };
  return sprites;
}

interface Entry {
  id: string;
  marker: SpriteMarker;
  station: StationListItem;
}

interface PixelCache {
  zoom: number;
  entries: Entry[];
  xs: Float64Array;
  ys: Float64Array;
}

export interface StationMarkerEvents {
  onClick: (station: StationListItem) => void;
  /** a map click that hit no station (and no satellite, which stops its own clicks) */
  onMiss?: () => void;
  /** true where something drawn above the stations (a satellite) owns the pointer */
  covered?: (containerPoint: L.Point) => boolean;
}

export class StationMarkers {
  private readonly entries = new Map<string, Entry>();
  private selectedId: string | null = null;
  private readonly receiving = new Set<string>();
  // One tooltip moved between markers: 10,000 bound tooltips would be 10,000 idle objects.
  private readonly hover = L.tooltip({ direction: 'top', offset: [0, -4] });
  private hovered: Entry | null = null;
  private cache: PixelCache | null = null;
  private pendingMove: L.Point | null = null;
  private moveFrame = 0;

  constructor(
    private readonly map: L.Map,
    private readonly events: StationMarkerEvents,
    private readonly radius = 3.5,
  ) {
    map.on('click', this.handleClick);
    map.on('mousemove', this.handleMove);
    map.on('mouseout', this.clearHover);
  }

  position(id: string): L.LatLng | null {
    return this.entries.get(id)?.marker.getLatLng() ?? null;
  }

  /** Replaces the whole list (first load, stations page). */
  update(stations: readonly StationListItem[]): void {
    const seen = new Set<string>();
    for (const station of stations) seen.add(this.upsert(station));
    for (const [id, entry] of this.entries) {
      if (!seen.has(id)) this.removeEntry(id, entry);
    }
  }

  /** Applies what changed since the last list (live `stations-delta` events). */
  applyDelta(delta: StationDelta): void {
    for (const station of delta.changed) this.upsert(station);
    for (const id of delta.removed) {
      const entry = this.entries.get(id);
      if (entry) this.removeEntry(id, entry);
    }
  }

  select(id: string | null): void {
    const previous = this.selectedId ? this.entries.get(this.selectedId) : undefined;
    this.selectedId = id;
    if (previous) this.paint(previous);
    const entry = id ? this.entries.get(id) : undefined;
    if (entry) {
      this.paint(entry);
      entry.marker.bringToFront();
    }
  }

  /** Restyles only the stations whose receiving state changed since the last call. */
  markReceiving(isReceiving: (station: StationListItem) => boolean): void {
    for (const entry of this.entries.values()) {
      const now = isReceiving(entry.station);
      if (now === this.receiving.has(entry.id)) continue;
      if (now) this.receiving.add(entry.id);
      else this.receiving.delete(entry.id);
      this.paint(entry);
    }
  }

  /** The station drawn at a container point (nearest within the marker radius), if any. */
  hitTest(containerPoint: L.Point): StationListItem | null {
    return this.hit(containerPoint)?.station ?? null;
  }

  remove(): void {
    this.map.off('click', this.handleClick);
    this.map.off('mousemove', this.handleMove);
    this.map.off('mouseout', this.clearHover);
    cancelAnimationFrame(this.moveFrame);
    this.clearHover();
    for (const { marker } of this.entries.values()) marker.remove();
    this.entries.clear();
    this.cache = null;
  }

  private upsert(station: StationListItem): string {
    const id = formatStationId(station.name, station.userId);
    const [lat, lng] = station.location;
    const entry = this.entries.get(id);
    if (!entry) {
      const state = this.stateOf(id, station);
      const marker = new SpriteMarker([lat, lng], {
        ...STYLES[state],
        radius: this.radius,
        weight: 0.7,
        fillOpacity: 0.9,
        renderer: paneRenderer(this.map, PANES.stations.name),
        pane: PANES.stations.name,
        interactive: false,
      }).setSprite(stationSprites()[state], STATION_ICON_MIN_ZOOM);
      marker.addTo(this.map);
      this.entries.set(id, { id, marker, station });
      this.cache = null;
      return id;
    }
    const previous = entry.station;
    entry.station = station;
    if (previous.location[0] !== lat || previous.location[1] !== lng) {
      entry.marker.setLatLng([lat, lng]);
      this.cache = null;
    }
    if (previous.status !== station.status) this.paint(entry);
    return id;
  }

  private removeEntry(id: string, entry: Entry): void {
    entry.marker.remove();
    this.entries.delete(id);
    this.receiving.delete(id);
    if (this.hovered === entry) this.clearHover();
    this.cache = null;
  }

  private hit(containerPoint: L.Point): Entry | null {
    const zoom = this.map.getZoom();
    if (!this.cache || this.cache.zoom !== zoom) this.cache = this.buildCache(zoom);
    const p = this.map.containerPointToLayerPoint(containerPoint).add(this.map.getPixelOrigin());
    const { entries, xs, ys } = this.cache;
    let best = -1;
    const radius = zoom >= STATION_ICON_MIN_ZOOM ? STATION_ICON_SIZE / 2 : this.radius;
    let bestD2 = (radius + HIT_SLOP_PX) ** 2;
    for (let i = 0; i < entries.length; i += 1) {
      const dx = (xs[i] ?? 0) - p.x;
      const dy = (ys[i] ?? 0) - p.y;
      const d2 = dx * dx + dy * dy;
      if (d2 <= bestD2) {
        bestD2 = d2;
        best = i;
      }
    }
    return entries[best] ?? null;
  }

  private buildCache(zoom: number): PixelCache {
    const entries = [...this.entries.values()];
    const xs = new Float64Array(entries.length);
    const ys = new Float64Array(entries.length);
    entries.forEach((e, i) => {
      const p = this.map.project(e.marker.getLatLng(), zoom);
      xs[i] = p.x;
      ys[i] = p.y;
    });
    return { zoom, entries, xs, ys };
  }

  private readonly handleClick = (e: L.LeafletMouseEvent) => {
    const entry = this.hit(e.containerPoint);
    if (entry) this.events.onClick(entry.station);
    else this.events.onMiss?.();
  };

  // Hover is resolved once per animation frame however fast the mouse moves.
  private readonly handleMove = (e: L.LeafletMouseEvent) => {
    this.pendingMove = e.containerPoint;
    if (this.moveFrame === 0) {
      this.moveFrame = requestAnimationFrame(() => {
        this.moveFrame = 0;
        if (this.pendingMove) this.updateHover(this.pendingMove);
      });
    }
  };

  private updateHover(point: L.Point): void {
    const entry = this.events.covered?.(point) ? null : this.hit(point);
    if (entry === this.hovered) return;
    this.hovered = entry;
    this.map.getContainer().style.cursor = entry ? 'pointer' : '';
    if (entry) this.hover.setLatLng(entry.marker.getLatLng()).setContent(entry.id).addTo(this.map);
    else this.hover.remove();
  }

  private readonly clearHover = () => {
    this.hovered = null;
    this.map.getContainer().style.cursor = '';
    this.hover.remove();
  };

  private stateOf(id: string, station: StationListItem): MarkerState {
    if (id === this.selectedId) return 'selected';
    if (station.status === 0) return 'offline';
    return this.receiving.has(id) ? 'receiving' : 'online';
  }

  private paint(entry: Entry): void {
    const state = this.stateOf(entry.id, entry.station);
    entry.marker.setStyle(STYLES[state]).setSprite(stationSprites()[state], STATION_ICON_MIN_ZOOM);
  }
}
