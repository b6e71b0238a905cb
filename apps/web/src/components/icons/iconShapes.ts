// The product's icons (SPEC.md section 9: satellite, balloon, station, social network logo,
// rotating orbit), drawn here as SVG path data on a 24 x 24 grid. The same data feeds the React
// icons and the map's canvas sprites. Each shape has filled parts (white in the light theme, black
// in the dark one) and outline-only strokes in the contrasting colour, so either theme reads on
// any background.

export type IconTheme = 'light' | 'dark';

export interface IconShape {
  /** filled with the theme's fill colour and outlined */
  fill: string;
  /** stroked only (antennas, strings, grid lines) */
  stroke: string;
}

export const ICON_COLOURS: Record<IconTheme, { fill: string; outline: string }> = {
  light: { fill: '#ffffff', outline: '#1a1a1a' },
  dark: { fill: '#000000', outline: '#f0f0f0' },
};

export const SATELLITE_SHAPE: IconShape = {
  // body, two solar wings, dish
  fill: 'M9 9h6v6H9zM1 10h6v4H1zM17 10h6v4h-6zM10 5.5a2 2 0 0 0 4 0z',
  // wing struts, cell lines, antenna mast
  stroke: 'M7 12h2M15 12h2M3 10v4M5 10v4M19 10v4M21 10v4M12 7.5V9',
};

export const BALLOON_SHAPE: IconShape = {
  // envelope and payload box
  fill: 'M12 1.5c-4.1 0-6.8 3-6.8 6.8 0 4.2 4 7.3 5.8 8.7h2c1.8-1.4 5.8-4.5 5.8-8.7 0-3.8-2.7-6.8-6.8-6.8zM10 20.5h4v2.5h-4z',
  // gores and rigging
  stroke: 'M12 1.5c-2 2-2.6 5-2 9M12 1.5c2 2 2.6 5 2 9M11 17l-.8 3.5M13 17l.8 3.5',
};

export const STATION_SHAPE: IconShape = {
  // dish and tripod
  fill: 'M2.5 9.5a8 8 0 0 0 12 6.9L5.6 2.6a8 8 0 0 0-3.1 6.9zM8.5 15l-3 7.5h2.2L10 17l2.3 5.5h2.2l-3-7.5z',
  // feed arm, feed and the received signal
  stroke:
    'M9 9l5-5M15.5 2.5l.01.01M17 7.5a3.5 3.5 0 0 1 0 0M18 2a5 5 0 0 1 4 4M17.5 4.5a2.5 2.5 0 0 1 2 2',
};

export const SOCIAL_SHAPE: IconShape = {
  // a speech bubble: the network's social account
  fill: 'M4 3.5h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H10l-5 4v-4H4a2 2 0 0 1-2-2v-10a2 2 0 0 1 2-2z',
  // three dots of a message being typed
  stroke: 'M8 10.5h.01M12 10.5h.01M16 10.5h.01',
};

export const ORBIT_SHAPE = {
  /** the planet */
  planet: 'M15 12a3 3 0 1 1-6 0 3 3 0 0 1 6 0z',
  /** the orbit, tilted */
  orbit: 'M2 12a10 4 0 1 0 20 0a10 4 0 1 0-20 0z',
  /** the satellite on the orbit, which turns around the planet */
  satellite: 'M24 12a2 2 0 1 1-4 0 2 2 0 0 1 4 0z',
};
