/**
 * Maps (Leaflet's canvas renderer) and the statistics chart draw on a 2D canvas. Where the browser
 * offers none (canvas blocked by privacy settings, or a DOM without graphics such as jsdom) those
 * blocks are replaced by a short note instead of failing.
 */
export const CAN_DRAW_CANVAS = typeof window.CanvasRenderingContext2D === 'function';
