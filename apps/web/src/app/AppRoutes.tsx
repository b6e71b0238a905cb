import { useEffect } from 'react';
import { matchRoutes, useLocation, useRoutes } from 'react-router';
import { routes } from './routes';
import { documentTitle } from './routeTitle';

/** Renders the matched route and keeps document.title in step with every navigation. */
export function AppRoutes() {
  const location = useLocation();
  const element = useRoutes(routes, location);
  const matches = matchRoutes(routes, location) ?? [];
  const title = documentTitle(matches.map((m) => ({ handle: m.route.handle, params: m.params })));
  useEffect(() => {
    document.title = title;
  }, [title]);
  return element;
}
