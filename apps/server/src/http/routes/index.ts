// Every route module of the API, registered in this order by buildApp. Each module is
// `(app, ctx) => Promise<void>` and owns the routes of one part of the product.
import type { App } from '../app';
import type { AppContext } from '../../context';
import {
  creationRoutes,
  loginRoutes,
  pictureRoutes,
  profileRoutes,
  stationRoutes,
} from '../../accounts/routes';
import { sseRoutes } from '../../network/sse-route';

export type RouteModule = (app: App, ctx: AppContext) => Promise<void>;

export const routeModules: RouteModule[] = [
  loginRoutes,
  profileRoutes,
  creationRoutes,
  stationRoutes,
  pictureRoutes,
  sseRoutes,
];
