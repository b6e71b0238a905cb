// The only thing component tests replace: the network, at fetch. Everything above it (api client,
// schemas, query cache, components) is the real code.
import { vi } from 'vitest';

export type Reply = { status?: number; body: unknown } | ((init: RequestInit | undefined) => Reply);

export interface FetchCall {
  url: string;
  init: RequestInit | undefined;
}

function toResponse(reply: Exclude<Reply, (init: RequestInit | undefined) => Reply>): Response {
  const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const type = typeof reply.body === 'string' ? 'text/plain' : 'application/json';
  return new Response(text, { status: reply.status ?? 200, headers: { 'content-type': type } });
}

/** Answers by exact path (with query string); anything else is a 404 JSON error. */
export function mockFetch(routes: Record<string, Reply>): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      calls.push({ url, init });
      let reply = routes[url];
      while (typeof reply === 'function') reply = reply(init);
      return Promise.resolve(
        reply ? toResponse(reply) : toResponse({ status: 404, body: { error: 'Not found' } }),
      );
    }),
  );
  return calls;
}
