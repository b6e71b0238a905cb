// Expanding rings around satellites and stations that just received a packet. Animates with
// requestAnimationFrame only while a ping is live, on its own canvas pane. A balloon has no orbit
// to draw it by: it shows as the balloon icon where its packet was heard from, while it pings.
import { PING_ANIMATION_MS } from '@tinygs/contracts';
import * as L from 'leaflet';
import { BALLOON_SHAPE } from '../../../../components/icons/iconShapes';
import { PANES, paneRenderer } from '../panes';
import type { LiveActivity, Ping } from '../activity';
import { makeSprite, SpriteMarker, type Sprite } from './SpriteMarker';

/** CSS px; white, like the balloon icon everywhere (SPEC.md section 9) */
const BALLOON_ICON_SIZE = 22;
let balloonSprite: Sprite | null | undefined;

const MAX_RADIUS_PX = 28;
// Rings grow slowly; 30 frames a second look the same as 60 at half the repaint work.
const FRAME_INTERVAL_MS = 33;

export interface PingPositions {
  satellite: (name: string) => L.LatLng | null;
  station: (id: string) => L.LatLng | null;
}

export class PingAnimator {
  private readonly rings = new Map<string, L.CircleMarker>();
  private readonly balloons = new Map<string, SpriteMarker>();
  private frame = 0;
  private lastDrawn = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly map: L.Map,
    private readonly activity: LiveActivity,
    private readonly positions: PingPositions,
  ) {
    this.unsubscribe = activity.subscribe(() => this.start());
  }

  private start(): void {
    if (this.frame === 0) this.frame = requestAnimationFrame(this.draw);
  }

  private readonly draw = (frameTime: number) => {
    if (frameTime - this.lastDrawn < FRAME_INTERVAL_MS) {
      this.frame = requestAnimationFrame(this.draw);
      return;
    }
    this.lastDrawn = frameTime;
    const now = Date.now();
    const live = new Set<string>();
    const renderer = paneRenderer(this.map, PANES.pings.name);
    const place = (key: string, ping: Ping, at: L.LatLng | null, color: string) => {
      if (!at || now >= ping.expiresAt) return;
      live.add(key);
      const progress = Math.min(1, (now - ping.startedAt) / PING_ANIMATION_MS);
      let ring = this.rings.get(key);
      if (!ring) {
        ring = L.circleMarker(at, {
          renderer,
          pane: PANES.pings.name,
          interactive: false,
          color,
          weight: 2,
          fill: false,
        });
        ring.addTo(this.map);
        this.rings.set(key, ring);
      }
      ring.setLatLng(at);
      ring.setRadius(4 + MAX_RADIUS_PX * progress);
      ring.setStyle({ opacity: 1 - progress });
    };
    const balloonsShown = new Set<string>();
    for (const [name, ping] of this.activity.pingingSatellites()) {
      const orbit = this.positions.satellite(name);
      const at = orbit ?? (ping.position ? L.latLng(ping.position) : null);
      place(`sat:${name}`, ping, at, '#ffeb3b');
      if (!orbit && at && now < ping.expiresAt) {
        balloonsShown.add(name);
        this.showBalloon(name, at);
      }
    }
    for (const [name, marker] of this.balloons) {
      if (!balloonsShown.has(name)) {
        marker.remove();
        this.balloons.delete(name);
      }
    }
    for (const [id, ping] of this.activity.pingingStations()) {
      place(`gs:${id}`, ping, this.positions.station(id), '#69f0ae');
    }
    for (const [key, ring] of this.rings) {
      if (!live.has(key)) {
        ring.remove();
        this.rings.delete(key);
      }
    }
    this.frame = live.size > 0 ? requestAnimationFrame(this.draw) : 0;
  };

  private showBalloon(name: string, at: L.LatLng): void {
    const existing = this.balloons.get(name);
    if (existing) {
      existing.setLatLng(at);
      return;
    }
    balloonSprite ??= makeSprite(BALLOON_SHAPE, BALLOON_ICON_SIZE, 'light');
    const marker = new SpriteMarker(at, {
      renderer: paneRenderer(this.map, PANES.pings.name),
      pane: PANES.pings.name,
      interactive: false,
      radius: 5,
      color: '#1a1a1a',
      fillColor: '#ffffff',
      fillOpacity: 1,
      weight: 1,
    }).setSprite(balloonSprite);
    marker.addTo(this.map);
    this.balloons.set(name, marker);
  }

  remove(): void {
    for (const marker of this.balloons.values()) marker.remove();
    this.balloons.clear();
    this.unsubscribe();
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    for (const ring of this.rings.values()) ring.remove();
    this.rings.clear();
  }
}
