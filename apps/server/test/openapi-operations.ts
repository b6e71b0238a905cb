// The routes a server documents in its OpenAPI document, as the HTTP robustness suites walk them:
// method, path pattern, and the names of the JSON body properties and query parameters.
import { expect } from 'vitest';
import type { Server } from '../src/server';

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  path: string;
  /** property names of the JSON body schema (all branches of an anyOf) */
  bodyKeys: string[];
  queryKeys: string[];
  /** true when the route takes a JSON body */
  jsonBody: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
interface JsonSchema {
  properties?: Record<string, unknown>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}

function schemaKeys(schema: JsonSchema | undefined): string[] {
  if (!schema) return [];
  const nested = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].flatMap(schemaKeys);
  return [...new Set([...Object.keys(schema.properties ?? {}), ...nested])];
}

/** Every documented operation; DELETE last, so the other routes still meet what it removes. */
export async function documentedOperations(server: Pick<Server, 'app'>): Promise<Operation[]> {
  const res = await server.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  const doc = res.json<{ paths: Record<string, Record<string, OpenApiOperation>> }>();
  const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([m]) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
      .map(([m, spec]) => {
        const json = spec.requestBody?.content?.['application/json'];
        return {
          method: m.toUpperCase() as Operation['method'],
          path,
          bodyKeys: schemaKeys(json?.schema),
          queryKeys: (spec.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
          jsonBody: json !== undefined,
        };
      }),
  );
  operations.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
  return operations;
}

/** The names of a path pattern's parameters: `/v1/station/{id}` -> ['id']. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '');
}
