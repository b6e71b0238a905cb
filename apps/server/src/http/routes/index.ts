// Every route module of the API, registered in this order by buildApp. Each module is
// `(app, ctx) => Promise<void>` and owns the routes of one part of the product.
import type { RouteModule } from '../route-module';
import {
  creationRoutes,
  loginRoutes,
  mqttPasswordRoutes,
  pictureRoutes,
  profileRoutes,
  stationRoutes,
  tokenRoutes,
} from '../../accounts/routes';
import { healthRoutes } from '../../health/health-routes';
import { sseRoutes } from '../../network/sse-route';
import { passRoutes } from '../../passes/pass-routes';
import { metricsRoutes } from '../../ops/metrics-route';
import { catalogueRoutes } from '../../public-api/catalogue/routes';
import { exportRoutes } from '../../public-api/export/routes';
import { leaderboardRoutes } from '../../public-api/leaderboards/routes';
import { packetRoutes } from '../../public-api/packet/routes';
import { packetListRoutes, stationPacketsRoutes } from '../../public-api/packets/routes';
import { searchRoutes } from '../../public-api/search/routes';
import { publicStationRoutes } from '../../public-api/station/routes';
import { stationListRoutes } from '../../public-api/stations/routes';
import { telemetryRoutes } from '../../telemetry/telemetry-routes';

export const routeModules: RouteModule[] = [
  catalogueRoutes,
  packetListRoutes,
  packetRoutes,
  stationPacketsRoutes,
  stationListRoutes,
  publicStationRoutes,
  healthRoutes,
  passRoutes,
  telemetryRoutes,
  exportRoutes,
  searchRoutes,
  leaderboardRoutes,
  loginRoutes,
  profileRoutes,
  mqttPasswordRoutes,
  creationRoutes,
  stationRoutes,
  pictureRoutes,
  tokenRoutes,
  sseRoutes,
  metricsRoutes,
];
