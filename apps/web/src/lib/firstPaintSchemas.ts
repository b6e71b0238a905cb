// The schemas that parts of / load through lazySchemas.ts when they need them (signing in with a
// token, the carousel of a network without approved photos; the first visit itself reads its
// answers with firstVisitChecks.ts and loads no schema): naming them here
// lets the build keep only these (and what they are built from) in that chunk, instead of every
// schema of the contracts package (the whole module namespace of a dynamic import).
export { LoginResponseSchema, SatellitesResponseSchema } from '@tinygs/contracts';
