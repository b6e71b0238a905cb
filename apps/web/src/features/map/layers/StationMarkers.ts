// Up to tens of thousands of stations as canvas circle markers, diffed by station id so a full
// `stations` event only touches markers whose position or status changed.
import { formatStationId, type StationListItem } from '@tinygs/contracts';
import * as L from 'leaflet';
import { paneRenderer } from '../base/BaseMap';
import { PANES } from '../base/panes';

const ONLINE: L.CircleMarkerOptions = { color: '#0d3b12', fillColor: '#4caf50' };
const OFFLINE: L.CircleMarkerOptions = { color: '#333333', fillColor: '#9e9e9e' };
const SELECTED: L.CircleMarkerOptions = { color: '#ffffff', fillColor: '#29b6f6' };

interface Entry {
  marker: L.CircleMarker;
  station: StationListItem;
}

export class StationMarkers {
  private readonly entries = new Map<string, Entry>();
  private selectedId: string | null = null;
  // One tooltip moved between markers: 10,000 bound tooltips would be 10,000 idle objects.
  private readonly hover = L.tooltip({ direction: 'top', offset: [0, -4] });

  constructor(
    private readonly map: L.Map,
    private readonly onClick: (station: StationListItem) => void,
    private readonly radius = 3.5,
  ) {}

  position(id: string): L.LatLng | null {
    return this.entries.get(id)?.marker.getLatLng() ?? null;
  }

  update(stations: readonly StationListItem[]): void {
    const renderer = paneRenderer(this.map, PANES.stations.name);
    const seen = new Set<string>();
    for (const station of stations) {
      const id = formatStationId(station.name, station.userId);
      seen.add(id);
      const [lat, lng] = station.location;
      const entry = this.entries.get(id);
      if (!entry) {
        const marker = L.circleMarker([lat, lng], {
          ...this.styleOf(id, station),
          radius: this.radius,
          weight: 0.7,
          fillOpacity: 0.9,
          renderer,
          pane: PANES.stations.name,
          bubblingMouseEvents: false,
        });
        const created: Entry = { marker, station };
        marker.on('click', () => this.onClick(created.station));
        marker.on('mouseover', () =>
          this.hover.setLatLng(marker.getLatLng()).setContent(id).addTo(this.map),
        );
        marker.on('mouseout', () => this.hover.remove());
        marker.addTo(this.map);
        this.entries.set(id, created);
        continue;
      }
      const previous = entry.station;
      entry.station = station;
      if (previous.location[0] !== lat || previous.location[1] !== lng)
        entry.marker.setLatLng([lat, lng]);
      if (previous.status !== station.status) entry.marker.setStyle(this.styleOf(id, station));
    }
    for (const [id, entry] of this.entries) {
      if (!seen.has(id)) {
        entry.marker.remove();
        this.entries.delete(id);
      }
    }
  }

  select(id: string | null): void {
    const previous = this.selectedId ? this.entries.get(this.selectedId) : undefined;
    this.selectedId = id;
    if (previous)
      previous.marker.setStyle(
        this.styleOf(
          formatStationId(previous.station.name, previous.station.userId),
          previous.station,
        ),
      );
    const entry = id ? this.entries.get(id) : undefined;
    if (entry) {
      entry.marker.setStyle(SELECTED);
      entry.marker.bringToFront();
    }
  }

  remove(): void {
    for (const { marker } of this.entries.values()) marker.remove();
    this.entries.clear();
    this.hover.remove();
  }

  private styleOf(id: string, station: StationListItem): L.CircleMarkerOptions {
    if (id === this.selectedId) return SELECTED;
    return station.status !== 0 ? ONLINE : OFFLINE;
  }
}
