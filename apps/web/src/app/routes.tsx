// Route table (SPEC.md section 2). Every page except Home is a separate chunk loaded on demand,
// so the first paint of / carries only the shell and the home screen. Declarative routing
// (useRoutes) rather than a data router: no loaders are needed and it costs 18 KB less gzip.
import type { RouteObject } from 'react-router';
import { lazyChunk } from '../lib/lazyChunk';
import { AppLayout } from './layout/AppLayout';
import type { RouteHandle } from './routeTitle';
import HomeRoute from './routes/HomeRoute';

const StationsPage = lazyChunk(() => import('../features/stations/StationsPage'));
const PacketsPage = lazyChunk(() => import('../features/packets/PacketsPage'));
const LeaderboardsPage = lazyChunk(() => import('../features/leaderboards/LeaderboardsPage'));
const PacketRoute = lazyChunk(() => import('./routes/PacketRoute'));
const SatelliteListPage = lazyChunk(() => import('../features/satellites/SatelliteListPage'));
const SatelliteTablePage = lazyChunk(() => import('../features/satellites/SatelliteTablePage'));
const SatelliteRoute = lazyChunk(() => import('./routes/SatelliteRoute'));
const StationPage = lazyChunk(() => import('../features/station/StationPage'));
const UserPage = lazyChunk(() => import('../features/user/UserPage'));
const AboutRoute = lazyChunk(() => import('./routes/AboutRoute'));
const HistoryRoute = lazyChunk(() => import('./routes/HistoryRoute'));
const TermsRoute = lazyChunk(() => import('./routes/TermsRoute'));
const AprilPage = lazyChunk(() => import('../features/info/AprilPage'));

function titled(title: RouteHandle['title']): { handle: RouteHandle } {
  return { handle: { title } };
}

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppLayout />,
    children: [
      { index: true, element: <HomeRoute />, ...titled('Home') },
      { path: 'stations', element: <StationsPage />, ...titled('Stations') },
      { path: 'packets', element: <PacketsPage />, ...titled('Packets') },
      { path: 'leaderboards', element: <LeaderboardsPage />, ...titled('Leaderboards') },
      { path: 'packet/:id', element: <PacketRoute inactive={false} />, ...titled('Packet') },
      { path: 'packetIna/:id', element: <PacketRoute inactive />, ...titled('Packet') },
      { path: 'satellites', element: <SatelliteListPage list="active" />, ...titled('Satellites') },
      {
        path: 'satellitesFSK',
        element: <SatelliteListPage list="fsk" />,
        ...titled('FSK Satellites'),
      },
      {
        path: 'satelliteFSK',
        element: <SatelliteListPage list="fsk" />,
        ...titled('FSK Satellites'),
      },
      {
        path: 'satellitesSL',
        element: <SatelliteTablePage list="starlink" />,
        ...titled('Starlink Satellites'),
      },
      {
        path: 'satellitesIna',
        element: <SatelliteListPage list="inactive" />,
        ...titled('Inactive Satellites'),
      },
      {
        path: 'satellitesFut',
        element: <SatelliteListPage list="future" />,
        ...titled('Future Satellites'),
      },
      {
        path: 'satellitesSurv',
        element: <SatelliteTablePage list="surveillance" />,
        ...titled('Surveillance Mode'),
      },
      { path: 'balloons', element: <SatelliteListPage list="balloons" />, ...titled('Balloons') },
      {
        path: 'satellite/:name',
        element: <SatelliteRoute inactive={false} />,
        ...titled((params) => params.name ?? 'Satellite'),
      },
      {
        path: 'satelliteIna/:name',
        element: <SatelliteRoute inactive />,
        ...titled((params) => params.name ?? 'Satellite'),
      },
      {
        path: 'station/:stationId',
        element: <StationPage />,
        ...titled((params) => params.stationId ?? 'Station'),
      },
      // The station id is the last path segment: /station/anything/name@1 opens name@1.
      {
        path: 'station/*',
        element: <StationPage />,
        ...titled((params) => params['*']?.split('/').filter(Boolean).pop() ?? 'Station'),
      },
      { path: 'user/:userId', element: <UserPage />, ...titled('User Console') },
      { path: 'april/:id', element: <AprilPage />, ...titled('April Fools') },
      { path: 'about', element: <AboutRoute />, ...titled('Meet the team') },
      { path: 'history', element: <HistoryRoute />, ...titled('History') },
      { path: 'terms', element: <TermsRoute />, ...titled('Terms') },
    ],
  },
];
