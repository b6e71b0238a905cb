import type { Params } from 'react-router';
import { PRODUCT_NAME } from '../config/site';

export interface RouteHandle {
  title: string | ((params: Params) => string);
}

function isRouteHandle(value: unknown): value is RouteHandle {
  if (typeof value !== 'object' || value === null) return false;
  const title: unknown = (value as { title?: unknown }).title;
  return typeof title === 'string' || typeof title === 'function';
}

/** '{route title} - {product}', from the deepest matched route that declares a title. */
export function documentTitle(matches: readonly { handle: unknown; params: Params }[]): string {
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const match = matches[i];
    if (match && isRouteHandle(match.handle)) {
      const { title } = match.handle;
      const text = typeof title === 'function' ? title(match.params) : title;
      return `${text} - ${PRODUCT_NAME}`;
    }
  }
  return PRODUCT_NAME;
}
