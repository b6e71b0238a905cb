import type { Satellite, SatelliteListKey } from '@tinygs/contracts';

/**
 * The API lists a page can read. `/v1/satellites` leaves out the retired (SPEC.md section 7), and
 * `/v1/satellitesIna` holds the Inactive satellites only: the retired balloons come from
 * `/v1/satellites?status=BInactive`.
 */
export type CatalogueSource =
  '/v1/satellites' | '/v1/satellitesIna' | '/v1/satellites?status=BInactive';

/** Every status: what the card lists' status filter can select. */
export const WHOLE_CATALOGUE: readonly CatalogueSource[] = [
  '/v1/satellites',
  '/v1/satellitesIna',
  '/v1/satellites?status=BInactive',
];

export interface SatelliteListConfig {
  heading: string;
  intro: string;
  /** API lists the page is cut from: together they hold every status its filters can select */
  sources: readonly CatalogueSource[];
  showLaunchDate: boolean;
}

/** Retired satellites and balloons open on the inactive satellite page (latest 100 packets). */
export function detailPathOf(satellite: Pick<Satellite, 'name' | 'status'>): string {
  const retired = satellite.status === 'Inactive' || satellite.status === 'BInactive';
  return `${retired ? '/satelliteIna' : '/satellite'}/${encodeURIComponent(satellite.name)}`;
}

export const SATELLITE_LISTS: Record<SatelliteListKey, SatelliteListConfig> = {
  active: {
    heading: 'Active Satellites',
    intro: 'Satellites the network listens to right now.',
    sources: WHOLE_CATALOGUE,
    showLaunchDate: false,
  },
  fsk: {
    heading: 'FSK Satellites',
    intro: 'Supported satellites with an FSK downlink in the 433 MHz band.',
    sources: WHOLE_CATALOGUE,
    showLaunchDate: false,
  },
  starlink: {
    heading: 'Starlink Satellites',
    intro: 'Starlink satellites heard by the network in the 137 MHz band.',
    // A fixed filter of one status, and no status chips: the active list holds it.
    sources: ['/v1/satellites'],
    showLaunchDate: false,
  },
  inactive: {
    heading: 'Inactive Satellites',
    intro: 'Satellites that have gone silent or re-entered. Their packets stay available.',
    sources: WHOLE_CATALOGUE,
    showLaunchDate: false,
  },
  future: {
    heading: 'Future Satellites',
    intro: 'Satellites waiting for launch or in their experimental phase.',
    sources: WHOLE_CATALOGUE,
    showLaunchDate: true,
  },
  surveillance: {
    heading: 'Surveillance Mode',
    intro: 'Satellites tracked in surveillance mode.',
    // A fixed filter of one status, and no status chips: the active list holds it.
    sources: ['/v1/satellites'],
    showLaunchDate: false,
  },
  balloons: {
    heading: 'Balloons',
    intro: 'High-altitude balloons carrying LoRa and FSK transmitters.',
    sources: WHOLE_CATALOGUE,
    showLaunchDate: false,
  },
};
