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
import { catalogueRoutes } from '../../public-api/catalogue-routes';
import { exportRoutes } from '../../public-api/export-routes';
import { packetRoutes } from '../../public-api/packet-routes';
import { stationRoutes as publicStationRoutes } from '../../public-api/station-routes';

export const routeModules: RouteModule[] = [
  catalogueRoutes,
  packetRoutes,
  publicStationRoutes,
  healthRoutes,
  passRoutes,
  exportRoutes,
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
