// Holds a hand-written check to the contracts schema it stands in for: every variant of a valid
// value (each place replaced by values of every JSON type and the caller's own, removed, or given a
// stray field) must be accepted by both with the same output, or refused by both. The web app's
// zod-free checks and the server's MQTT payload checks use it (`@tinygs/contracts/schema-agreement`).
import { expect } from 'vitest';
import { JSON_VALUES as VALUES } from './jsonValues';

type Json = unknown;
const DELETE = Symbol('delete');

/** `base` with the value at `path` replaced (or deleted). */
function replaced(base: Json, path: (string | number)[], value: unknown): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(base)) {
    const copy = [...base];
    if (value === DELETE && rest.length === 0) copy.splice(Number(head), 1);
    else copy[Number(head)] = replaced(base[Number(head)], rest, value);
    return copy;
  }
  const copy = { ...(base as Record<string, unknown>) };
  if (value === DELETE && rest.length === 0) delete copy[head];
  else copy[head] = replaced(copy[head], rest, value);
  return copy;
}

function paths(value: Json, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null) return [at];
  const keys = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...keys.flatMap((k) => paths((value as Record<string, Json>)[k], [...at, k]))];
}

/** Every value with one place of `base` replaced by each of `values`, removed, or given a stray field. */
function* variants(base: Json, values: readonly unknown[]): Generator<Json> {
  yield base;
  for (const path of paths(base)) {
    if (path.length > 0) yield replaced(base, path, DELETE);
    for (const v of values) {
      // JSON has no undefined: a place set to it is a place removed, yielded above.
      if (v === undefined && path.length > 0) continue;
      yield replaced(base, path, v);
    }
    const here = path.reduce<Json>((o, k) => (o as Record<string, Json>)[k], base);
    if (typeof here === 'object' && here !== null && !Array.isArray(here))
      yield replaced(base, path, { ...here, stray: 1 });
  }
}

/** `extraValues`: put in every place besides the values of every JSON type (edge cases of the schema's own limits). */
export function agree<T>(
  check: (raw: unknown) => T | null,
  schema: { safeParse(v: unknown): unknown },
  base: Json,
  extraValues: readonly unknown[] = [],
) {
  let accepted = 0;
  let refused = 0;
  for (const raw of variants(base, [...VALUES, ...extraValues])) {
    const parsed = schema.safeParse(raw) as { success: boolean; data?: unknown };
    const checked = check(raw);
    if (parsed.success) {
      accepted += 1;
      expect(checked, JSON.stringify(raw)).toStrictEqual(parsed.data);
    } else {
      refused += 1;
      expect(checked, JSON.stringify(raw)).toBeNull();
    }
  }
  return { accepted, refused };
}
