// The account routes, one module per seam; each is appended to routeModules in src/http/routes.
export { creationRoutes } from './creation-routes';
export { loginRoutes } from './login-routes';
export { mqttPasswordRoutes } from './mqtt-password-routes';
export { pictureRoutes } from './picture-routes';
export { profileRoutes } from './profile-routes';
export { stationRoutes } from './station-routes';
export { tokenRoutes } from './token-routes';
