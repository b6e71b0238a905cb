// Deep comparison of a decoded frame with the live network's `parsed`: same keys at every level,
// same values, numbers equal to 1e-9 (relative, or absolute near zero).
export function differences(actual: unknown, expected: unknown, path = ''): string[] {
  if (typeof actual === 'number' && typeof expected === 'number') {
    const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
    return Math.abs(actual - expected) <= tolerance ? [] : [`${path}: ${actual} != ${expected}`];
  }
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (actual.length !== expected.length) {
      return [`${path}: length ${actual.length} != ${expected.length}`];
    }
    return actual.flatMap((item: unknown, i) => differences(item, expected[i], `${path}[${i}]`));
  }
  if (isObject(actual) && isObject(expected)) {
    const keys = new Set([...Object.keys(actual), ...Object.keys(expected)]);
    return [...keys].flatMap((key) => {
      if (!(key in actual)) return [`${path}.${key}: missing`];
      if (!(key in expected)) return [`${path}.${key}: not in the live output`];
      return differences(actual[key], expected[key], `${path}.${key}`);
    });
  }
  return Object.is(actual, expected)
    ? []
    : [`${path}: ${JSON.stringify(actual)} != ${JSON.stringify(expected)}`];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
