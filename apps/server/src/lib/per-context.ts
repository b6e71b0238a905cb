// One value per server context (an assembled server): the routes, jobs and event handlers of one
// server share it, and a test that assembles another server gets its own.
import type { AppContext } from '../context';

/** `make(ctx)` once per context, the same object for every later call with that context. */
export function perContext<T extends object>(make: (ctx: AppContext) => T): (ctx: AppContext) => T {
  const made = new WeakMap<AppContext, T>();
  return (ctx) => {
    let value = made.get(ctx);
    if (!value) {
      value = make(ctx);
      made.set(ctx, value);
    }
    return value;
  };
}
