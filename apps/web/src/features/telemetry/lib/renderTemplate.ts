// Satellite teams publish their telemetry page as a Liquid template (logic-less: no JavaScript
// runs). Liquid escapes every output value, DOMPurify then cleans the markup the template itself
// writes, so neither a template nor a frame's bytes can inject script.
import { Liquid } from 'liquidjs';
import { sanitizeHtml } from '../../../lib/sanitize';

const engine = new Liquid({
  // No file lookups: {% include %} and {% render %} must not fetch anything.
  templates: {},
  // Only the packet's own fields, never prototype members such as constructor.
  ownPropertyOnly: true,
  outputEscape: 'escape',
  // A hostile or buggy template cannot hang the page.
  parseLimit: 200_000,
  renderLimit: 1_000,
  memoryLimit: 10_000_000,
});

function toNumber(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

engine.registerFilter('round', (value: unknown, decimals: unknown = 0) => {
  const n = toNumber(value);
  const d = toNumber(decimals) ?? 0;
  if (n === null) return value;
  const factor = 10 ** d;
  return Math.round(n * factor) / factor;
});
engine.registerFilter('fixed2', (value: unknown) => toNumber(value)?.toFixed(2) ?? value);
engine.registerFilter('fixed3', (value: unknown) => toNumber(value)?.toFixed(3) ?? value);
engine.registerFilter('toHex', (value: unknown, width: unknown = 2) => {
  const n = toNumber(value);
  if (n === null || !Number.isInteger(n)) return value;
  return `0x${(n >>> 0)
    .toString(16)
    .toUpperCase()
    .padStart(toNumber(width) ?? 2, '0')}`;
});

export interface TemplateScope {
  /** the whole packet (or for a satellite page, { parsed: lastTelemetry }) */
  packet: unknown;
  /** parsed.header */
  h: unknown;
  /** parsed.payload */
  p: unknown;
}

export type TemplateResult = { ok: true; html: string } | { ok: false; error: string };

export function renderTemplate(template: string, scope: TemplateScope): TemplateResult {
  try {
    const output: unknown = engine.parseAndRenderSync(template, { ...scope });
    if (typeof output !== 'string') return { ok: false, error: 'Template produced no text' };
    return { ok: true, html: sanitizeHtml(output) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
