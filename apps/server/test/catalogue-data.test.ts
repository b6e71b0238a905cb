// The demo catalogue under seed/ is data other parts load as is: these checks keep it loadable
// (shapes, cross-references), useful (every list and auto-tune band populated) and physically sane
// (TLEs that propagate to low Earth orbit around the demo date, templates that render real frames).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Liquid } from 'liquidjs';
import { eciToGeodetic, gstime, propagate, twoline2satrec } from 'satellite.js';
import { describe, expect, it } from 'vitest';
import { isFormatId } from '@tinygs/decoders';
import {
  FREQUENCY_BANDS,
  ModemConfSchema,
  SATELLITE_STATUSES,
  bandOfFrequency,
} from '@tinygs/contracts';

const SEED_DIR = fileURLToPath(new URL('../seed', import.meta.url));
const DEMO_DATE = new Date(Date.UTC(2026, 10, 22));
const LORA_KEYS = [
  'mode',
  'freq',
  'bw',
  'sf',
  'cr',
  'sw',
  'pwr',
  'cl',
  'pl',
  'gain',
  'crc',
  'fldro',
  'sat',
  'NORAD',
];
const FSK_KEYS = ['mode', 'freq', 'br', 'fd', 'fsw', 'ook', 'len', 'pl', 'pwr', 'sat', 'NORAD'];
const WITHOUT_TLE = ['Future', 'BFuture', 'Balloon', 'BInactive'];
const HTML_TAGS_ALLOWED = new Set(['p', 'a', 'ul', 'li', 'strong']);

interface Conf {
  mode: string;
  freq: number;
  [field: string]: unknown;
}
interface Entry {
  name: string;
  displayName: string;
  norad: number | null;
  status: string;
  description: string;
  longDescription: string;
  launchDate: string | null;
  configurations: Conf[];
  tle: [string, string, string] | null;
  images: string[];
  decoder: string | null;
  webTemplate: string;
  invented?: boolean;
}

const files = readdirSync(join(SEED_DIR, 'satellites')).filter((f) => f.endsWith('.json'));
const catalogue = files.map((file) => ({
  file,
  entry: JSON.parse(readFileSync(join(SEED_DIR, 'satellites', file), 'utf8')) as Entry,
}));
const entries = catalogue.map((c) => c.entry);
const byName = new Map(entries.map((e) => [e.name, e]));
const defaultBand = (e: Entry) =>
  e.configurations[0] ? bandOfFrequency(e.configurations[0].freq) : null;

describe('satellite files', () => {
  it('hold at least 45 satellites, one per file named after the satellite, names unique', () => {
    expect(entries.length).toBeGreaterThanOrEqual(45);
    for (const { file, entry } of catalogue) expect(file).toBe(`${entry.name}.json`);
    expect(new Set(entries.map((e) => e.name.toLowerCase())).size).toBe(entries.length);
    expect(new Set(entries.map((e) => e.displayName)).size).toBe(entries.length);
    const norads = entries.map((e) => e.norad).filter((n) => n !== null);
    expect(new Set(norads).size).toBe(norads.length);
  });

  it.each(entries.map((e) => [e.name, e] as const))(
    '%s has every field with its type',
    (_name, e) => {
      expect(e.name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(e.displayName.trim()).not.toBe('');
      expect(SATELLITE_STATUSES).toContain(e.status);
      expect(e.description).toMatch(/^[^\n<>]{10,160}$/);
      expect(e.launchDate === null || /^\d{4}-\d{2}-\d{2}$/.test(e.launchDate)).toBe(true);
      expect(e.launchDate === null || !Number.isNaN(Date.parse(e.launchDate))).toBe(true);
      expect(
        e.norad === null || (Number.isInteger(e.norad) && e.norad >= 1000 && e.norad <= 9_999_999),
      ).toBe(true);
      expect(e.decoder === null || isFormatId(e.decoder)).toBe(true);
      for (const tag of e.longDescription.matchAll(/<\/?([a-zA-Z0-9]+)([^>]*)>/g)) {
        expect(HTML_TAGS_ALLOWED.has(tag[1] ?? ''), `<${tag[1]}> in ${e.name}`).toBe(true);
        if (tag[1] !== 'a') expect(tag[2]).toBe('');
        else if (!tag[0].startsWith('</'))
          expect(tag[2]).toMatch(/^ href="(https:\/\/|\/)[^"<>]*"$/);
      }
    },
  );

  it.each(entries.map((e) => [e.name, e] as const))(
    '%s has full modem configurations',
    (_name, e) => {
      expect(e.configurations.length).toBeGreaterThanOrEqual(1);
      for (const conf of e.configurations) {
        expect(ModemConfSchema.safeParse(conf).success).toBe(true);
        expect(Object.keys(conf).sort()).toEqual(
          [...(conf.mode === 'LoRa' ? LORA_KEYS : FSK_KEYS)].sort(),
        );
        expect(conf.sat).toBe(e.name);
        expect(conf.NORAD).toBe(e.norad);
        expect(bandOfFrequency(conf.freq)).not.toBeNull();
        if (conf.mode === 'LoRa') {
          expect(conf.sf).toBeGreaterThanOrEqual(7);
          expect(conf.sf).toBeLessThanOrEqual(12);
          expect(conf.cr).toBeGreaterThanOrEqual(5);
          expect(conf.cr).toBeLessThanOrEqual(8);
        } else {
          expect((conf.fsw as number[]).length).toBeLessThanOrEqual(8);
        }
      }
    },
  );
});

describe('lists and auto-tune', () => {
  it('cover every status at least twice', () => {
    for (const status of SATELLITE_STATUSES) {
      expect(entries.filter((e) => e.status === status).length, status).toBeGreaterThanOrEqual(2);
    }
  });

  it('give auto-tune several Supported satellites in every band, LoRa and FSK', () => {
    const supported = entries.filter((e) => e.status === 'Supported');
    for (const { band } of FREQUENCY_BANDS) {
      expect(
        supported.filter((e) => defaultBand(e) === band).length,
        `band ${band}`,
      ).toBeGreaterThanOrEqual(3);
    }
    const fsk433 = supported.filter(
      (e) => defaultBand(e) === 433 && e.configurations[0]?.mode === 'FSK',
    );
    expect(fsk433.length).toBeGreaterThanOrEqual(6);
    expect(supported.some((e) => e.configurations[0]?.mode === 'LoRa')).toBe(true);
    expect(entries.filter((e) => e.configurations.length >= 2).length).toBeGreaterThanOrEqual(3);
  });

  it('fill the Starlink list with 137-band LoRa satellites', () => {
    const starlink = entries.filter((e) => e.status === 'SupportedSL');
    expect(starlink.length).toBeGreaterThanOrEqual(3);
    for (const e of starlink) {
      expect(defaultBand(e)).toBe(137);
      expect(e.configurations[0]?.mode).toBe('LoRa');
    }
  });
});

// Radio settings of the live network's satellites as captured in November 2022.
const REAL = [
  {
    name: 'Norbi',
    displayName: 'Norby',
    norad: 46494,
    decoder: 'norby',
    radio: [436.703, 10, 250, 5],
  },
  {
    name: 'SATLLA-2B',
    displayName: 'SATLLA-2B',
    norad: 51014,
    decoder: 'satlla_2b',
    radio: [437.25, 10, 62.5, 5],
  },
  {
    name: 'FossaSat-2E1',
    displayName: 'FossaSat-2E1',
    norad: 52747,
    decoder: 'fossasat_2e',
    radio: [401.7, 11, 125, 8],
  },
  {
    name: 'FossaSat-2E8',
    displayName: 'FossaSat-2E8',
    norad: 99991,
    decoder: 'fossasat_2e',
    radio: [401.7, 11, 125, 8],
  },
  {
    name: 'FossaSat-2E11',
    displayName: 'FossaSat-2E11',
    norad: 52750,
    decoder: 'fossasat_2e',
    radio: [401.7, 11, 125, 8],
  },
  {
    name: 'FossaSat-2E12',
    displayName: 'FossaSat-2E12',
    norad: 52773,
    decoder: 'fossasat_2e',
    radio: [401.7, 11, 125, 8],
  },
  { name: 'FEES', displayName: 'FEES', norad: 48082, decoder: 'fees', radio: [437.2, 9, 125, 5] },
  {
    name: 'Polytech_Universe-1',
    displayName: 'Polytech Universe-1',
    norad: 53371,
    decoder: 'polytech_universe_1',
    radio: [436.895, 8, 62.5, 6],
  },
];

describe('real satellites', () => {
  it.each(REAL)('$name is Supported with its captured radio settings', (real) => {
    const e = byName.get(real.name);
    expect(e).toBeDefined();
    if (!e) return;
    expect([e.displayName, e.norad, e.status, e.decoder]).toEqual([
      real.displayName,
      real.norad,
      'Supported',
      real.decoder,
    ]);
    const conf = e.configurations[0];
    expect([conf?.mode, conf?.freq, conf?.sf, conf?.bw, conf?.cr]).toEqual(['LoRa', ...real.radio]);
  });

  it('leave tinygs_demo to the demo satellites', () => {
    const realNames = new Set(REAL.map((r) => r.name));
    for (const e of entries)
      if (!realNames.has(e.name)) expect(e.decoder, e.name).toBe('tinygs_demo');
  });

  it('mark every other satellite as invented (DEMO=0 leaves those out)', () => {
    const realNames = new Set(REAL.map((r) => r.name));
    for (const e of entries) expect(e.invented === true, e.name).toBe(!realNames.has(e.name));
  });
});

function checksumOk(line: string): boolean {
  let sum = 0;
  for (const ch of line.slice(0, 68)) sum += ch === '-' ? 1 : /\d/.test(ch) ? Number(ch) : 0;
  return line.length === 69 && Number(line[68]) === sum % 10;
}

describe('TLEs', () => {
  it.each(entries.map((e) => [e.name, e] as const))(
    '%s has a TLE exactly when it flies',
    (_name, e) => {
      if (WITHOUT_TLE.includes(e.status)) {
        expect(e.tle).toBeNull();
        return;
      }
      expect(e.tle).toHaveLength(3);
      const [name, line1, line2] = e.tle ?? ['', '', ''];
      expect(name.trim()).not.toBe('');
      expect(checksumOk(line1) && checksumOk(line2), 'checksums').toBe(true);
      expect(Number(line1.slice(2, 7))).toBe(e.norad);
      expect(Number(line2.slice(2, 7))).toBe(e.norad);
      const inclinationDeg = Number(line2.slice(8, 16));
      expect(inclinationDeg).toBeGreaterThanOrEqual(45);
      expect(inclinationDeg).toBeLessThanOrEqual(98);

      const satrec = twoline2satrec(line1, line2);
      const epochMs = Date.UTC(2000 + satrec.epochyr, 0, 1) + (satrec.epochdays - 1) * 86_400_000;
      const ageDays = (DEMO_DATE.getTime() - epochMs) / 86_400_000;
      expect(ageDays).toBeGreaterThan(0);
      expect(ageDays).toBeLessThan(10);
      // Around the demo date, every few hours for a day.
      for (let hour = 0; hour <= 24; hour += 3) {
        const when = new Date(DEMO_DATE.getTime() + hour * 3_600_000);
        const state = propagate(satrec, when);
        expect(state, `${e.name} propagates at +${hour} h`).not.toBeNull();
        if (!state) return;
        const altitudeKm = eciToGeodetic(state.position, gstime(when)).height;
        expect(altitudeKm).toBeGreaterThan(150);
        expect(altitudeKm).toBeLessThan(2000);
      }
    },
  );
});

describe('images and templates', () => {
  it.each(entries.map((e) => [e.name, e] as const))('%s refers to files that exist', (_name, e) => {
    expect(e.images.length).toBeGreaterThanOrEqual(1);
    for (const image of e.images) {
      const path = join(SEED_DIR, 'images', image);
      expect(existsSync(path), image).toBe(true);
      expect(statSync(path).size).toBeLessThan(3 * 1024);
      expect(readFileSync(path, 'utf8')).toMatch(
        /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^]*<\/svg>\s*$/,
      );
    }
    expect(existsSync(join(SEED_DIR, 'templates', e.webTemplate)), e.webTemplate).toBe(true);
  });
});

// Stand-ins for the server's template filters as the brief defines them. They throw on missing or
// non-numeric input, so a template that formats a field without checking it first fails here.
function numericFilter(format: (value: number) => string) {
  return (value: unknown): string => {
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new Error(`not a number: ${String(value)}`);
    return format(value);
  };
}
const liquid = new Liquid();
liquid.registerFilter(
  'fixed2',
  numericFilter((v) => v.toFixed(2)),
);
liquid.registerFilter(
  'fixed3',
  numericFilter((v) => v.toFixed(3)),
);
liquid.registerFilter(
  'toHex',
  numericFilter((v) => v.toString(16)),
);

const templateNames = readdirSync(join(SEED_DIR, 'templates')).filter((f) => f.endsWith('.liquid'));
const templateText = (file: string) => readFileSync(join(SEED_DIR, 'templates', file), 'utf8');

async function render(file: string, packet: Record<string, unknown>): Promise<string> {
  const parsed = packet.parsed as { header?: unknown; payload?: unknown } | undefined;
  const html = await liquid.parseAndRender(templateText(file), {
    packet,
    h: parsed?.header,
    p: parsed?.payload ?? parsed,
  });
  expect(html).not.toMatch(/NaN|undefined|\[object Object\]|<script|<style|javascript:/i);
  return html.replace(/\s+/g, ' ');
}

const orbitState = {
  satPos: { lat: 50.386, lng: -26.92, alt: 518.3 },
  sunLit: false,
  eclipseDepth: 12.5,
};
// Frames captured from the live network (November 2022) and two demo frames, each with texts its
// template must show.
const SAMPLES = JSON.parse(readFileSync(join(SEED_DIR, 'template-samples.json'), 'utf8')) as {
  template: string;
  parsed: Record<string, unknown>;
  shows: string[];
}[];

describe('web templates', () => {
  it('are referenced by some satellite and all parse', () => {
    const used = new Set(entries.map((e) => e.webTemplate));
    for (const file of templateNames) {
      expect(used.has(file), file).toBe(true);
      expect(
        SAMPLES.some((sample) => sample.template === file),
        `a sample frame for ${file}`,
      ).toBe(true);
      expect(() => liquid.parse(templateText(file))).not.toThrow();
    }
  });

  it.each(SAMPLES.map((s) => [s.template, s] as const))(
    '%s renders a real frame',
    async (file, sample) => {
      const html = await render(file, { ...orbitState, parsed: sample.parsed });
      for (const text of sample.shows) expect(html).toContain(text);
    },
  );

  it.each(templateNames)('%s degrades gracefully when fields are missing', async (file) => {
    for (const packet of [
      {},
      { parsed: {} },
      { parsed: { header: {}, payload: {} } },
      { parsed: null, satPos: {} },
    ]) {
      const html = await render(file, packet);
      expect(html).toContain('<table>');
      expect(html).not.toContain('mW');
    }
  });
});
