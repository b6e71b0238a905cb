import type { SatelliteListKey } from '@tinygs/contracts';

export interface SatelliteListConfig {
  heading: string;
  intro: string;
  /** API path of the catalogue the list is cut from */
  source: '/v1/satellites' | '/v1/satellitesIna';
  /** detail route prefix */
  detailPath: '/satellite' | '/satelliteIna';
  showLaunchDate: boolean;
}

export const SATELLITE_LISTS: Record<SatelliteListKey, SatelliteListConfig> = {
  active: {
    heading: 'Active Satellites',
    intro: 'Satellites the network listens to right now.',
    source: '/v1/satellites',
    detailPath: '/satellite',
    showLaunchDate: false,
  },
  fsk: {
    heading: 'FSK Satellites',
    intro: 'Supported satellites with an FSK downlink in the 433 MHz band.',
    source: '/v1/satellites',
    detailPath: '/satellite',
    showLaunchDate: false,
  },
  starlink: {
    heading: 'Starlink Satellites',
    intro: 'Starlink satellites heard by the network in the 137 MHz band.',
    source: '/v1/satellites',
    detailPath: '/satellite',
    showLaunchDate: false,
  },
  inactive: {
    heading: 'Inactive Satellites',
    intro: 'Satellites that have gone silent or re-entered. Their packets stay available.',
    source: '/v1/satellitesIna',
    detailPath: '/satelliteIna',
    showLaunchDate: false,
  },
  future: {
    heading: 'Future Satellites',
    intro: 'Satellites waiting for launch or in their experimental phase.',
    source: '/v1/satellites',
    detailPath: '/satellite',
    showLaunchDate: true,
  },
  surveillance: {
    heading: 'Surveillance Mode',
    intro: 'Satellites tracked in surveillance mode.',
    source: '/v1/satellites',
    detailPath: '/satellite',
    showLaunchDate: false,
  },
  balloons: {
    heading: 'Balloons',
    intro: 'High-altitude balloons carrying LoRa and FSK transmitters.',
    source: '/v1/satellites',
    detailPath: '/satellite',
    showLaunchDate: false,
  },
};
