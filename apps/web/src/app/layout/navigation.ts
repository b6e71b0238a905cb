// Side drawer entries (SPEC.md section 2, Layout), in the order the spec lists them.
export interface NavLinkItem {
  label: string;
  to: string;
}

export interface NavGroup {
  label: string;
  items: NavLinkItem[];
}

export const MAIN_LINKS: NavLinkItem[] = [
  { label: 'Home', to: '/' },
  { label: 'Stations', to: '/stations' },
  { label: 'Packets', to: '/packets' },
  { label: 'Leaderboards', to: '/leaderboards' },
];

export const NAV_GROUPS: NavGroup[] = [
  {
    label: 'Satellites',
    items: [
      { label: 'Active', to: '/satellites' },
      { label: 'FSK', to: '/satellitesFSK' },
      { label: 'Starlink', to: '/satellitesSL' },
      { label: 'Inactive', to: '/satellitesIna' },
      { label: 'Future', to: '/satellitesFut' },
      { label: 'Surveillance Mode', to: '/satellitesSurv' },
      { label: 'Balloons', to: '/balloons' },
    ],
  },
  {
    label: 'About',
    items: [
      { label: 'Meet the team', to: '/about' },
      { label: 'History', to: '/history' },
      { label: 'Terms', to: '/terms' },
    ],
  },
];

export const DRAWER_WIDTH = 240;
