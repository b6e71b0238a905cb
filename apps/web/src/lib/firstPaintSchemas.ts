// The schemas that screens on the first paint of / load through lazySchemas.ts: naming them here
// lets the build keep only these (and what they are built from) in that chunk, instead of every
// schema of the contracts package (the whole module namespace of a dynamic import).
export {
  LoginResponseSchema,
  RecentPicturesResponseSchema,
  SatellitesResponseSchema,
} from '@tinygs/contracts';
