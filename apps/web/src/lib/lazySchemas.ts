/**
 * The contracts' zod schemas for screens on the first paint of /. Importing them statically would
 * put zod (about 28 KB gzip) into the entry chunk; loaded this way it arrives in parallel with
 * the first API call. Other screens are lazy chunks already and import schemas directly.
 */
export function loadSchemas() {
  return import('./firstPaintSchemas');
}
