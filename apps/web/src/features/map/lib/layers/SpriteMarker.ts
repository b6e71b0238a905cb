// A canvas circle marker that paints a prerendered icon instead of a circle. Leaflet keeps doing
// what makes canvas markers cheap (one canvas per pane, redraw of dirty regions, hit tests on the
// radius); only the paint step changes, and drawImage of a small bitmap costs about what a filled
// arc does, so 300 satellites repaint as fast as 300 dots.
import * as L from 'leaflet';
import {
  ICON_COLOURS,
  type IconShape,
  type IconTheme,
} from '../../../../components/icons/iconShapes';

export interface Sprite {
  image: HTMLCanvasElement;
  /** CSS px on the map */
  size: number;
}

/** The icon drawn once at the screen's pixel density; null where canvas is unavailable (tests). */
export function makeSprite(
  shape: IconShape,
  size: number,
  theme: IconTheme,
  fill?: string,
): Sprite | null {
  const ratio = Math.max(1, Math.ceil(globalThis.devicePixelRatio || 1));
  const image = document.createElement('canvas');
  image.width = image.height = size * ratio;
  const ctx = image.getContext('2d');
  if (!ctx || typeof Path2D === 'undefined') return null;
  const colours = ICON_COLOURS[theme];
  ctx.scale((size * ratio) / 24, (size * ratio) / 24);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  ctx.strokeStyle = colours.outline;
  const filled = new Path2D(shape.fill);
  ctx.fillStyle = fill ?? colours.fill;
  ctx.fill(filled);
  ctx.lineWidth = 1.4;
  ctx.stroke(filled);
  ctx.lineWidth = 1.6;
  ctx.stroke(new Path2D(shape.stroke));
  return { image, size };
}

// Leaflet's canvas renderer calls the layer's _updatePath to paint it, and _updateBounds /
// _containsPoint for redraw regions and hit tests; these are the private fields those rely on
// (Leaflet 1.9).
interface CanvasInternals {
  _ctx: CanvasRenderingContext2D;
  _drawing: boolean;
}
interface MarkerInternals {
  _point: L.Point;
  _pxBounds: L.Bounds;
  _map: L.Map | null;
  _renderer: CanvasInternals;
  _empty(): boolean;
}
interface CircleMarkerMethods {
  _updatePath(): void;
  _updateBounds(): void;
  _containsPoint(p: L.Point): boolean;
}
const circle = L.CircleMarker.prototype as unknown as CircleMarkerMethods;

export class SpriteMarker extends L.CircleMarker {
  private sprite: Sprite | null = null;
  /** Below this zoom the marker stays a circle (thousands of icons would only overlap). */
  private spriteMinZoom = 0;

  setSprite(sprite: Sprite | null, minZoom = 0): this {
    this.sprite = sprite;
    this.spriteMinZoom = minZoom;
    this.redraw();
    return this;
  }

  private shownSprite(): Sprite | null {
    const map = (this as unknown as MarkerInternals)._map;
    if (!this.sprite || !map) return null;
    return map.getZoom() >= this.spriteMinZoom ? this.sprite : null;
  }

  _updateBounds(): void {
    circle._updateBounds.call(this);
    const sprite = this.shownSprite();
    if (!sprite) return;
    // Redraw regions must cover the whole icon, which may be larger than the circle.
    const self = this as unknown as MarkerInternals;
    const half = sprite.size / 2 + 1;
    self._pxBounds = new L.Bounds(
      self._point.subtract([half, half]),
      self._point.add([half, half]),
    );
  }

  _containsPoint(p: L.Point): boolean {
    const sprite = this.shownSprite();
    if (!sprite) return circle._containsPoint.call(this, p);
    return p.distanceTo((this as unknown as MarkerInternals)._point) <= sprite.size / 2;
  }

  _updatePath(): void {
    const self = this as unknown as MarkerInternals;
    const sprite = this.shownSprite();
    if (!sprite) {
      // Zoomed out, or no canvas 2D (tests): Leaflet's circle.
      circle._updatePath.call(this);
      return;
    }
    const renderer = self._renderer;
    if (!renderer._drawing || self._empty()) return;
    const half = sprite.size / 2;
    renderer._ctx.drawImage(
      sprite.image,
      self._point.x - half,
      self._point.y - half,
      sprite.size,
      sprite.size,
    );
  }
}
