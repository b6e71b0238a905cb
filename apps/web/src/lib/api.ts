// The one HTTP client of the web app: same-origin API, 30 s time-out (SPEC.md section 9),
// responses parsed with the contracts schemas so a shape change fails loudly in one place.

/** A contracts zod schema, or a hand-written check of the same shape where zod would cost too much. */
export interface ResponseParser<T> {
  parse(body: unknown): T;
}

export const API_TIMEOUT_MS = 30_000;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Send the stored session headers (userId, sessionToken). */
  auth?: { userId: string; sessionToken: string } | null;
  signal?: AbortSignal;
  timeoutMs?: number;
}

function errorMessage(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string') return b.message;
    if (typeof b.error === 'string') return b.error;
  }
  return `HTTP ${status}`;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (options.auth) {
    headers.userId = options.auth.userId;
    headers.sessionToken = options.auth.sessionToken;
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? API_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  return fetch(path, { method: options.method ?? 'GET', headers, body, signal });
}

async function readBody(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return res.json();
  return res.text();
}

/** Calls the API and validates the answer with `schema`. Throws ApiError for non-2xx answers. */
export async function api<T>(
  path: string,
  schema: ResponseParser<T>,
  options: RequestOptions = {},
): Promise<T> {
  const res = await send(path, options);
  const body = await readBody(res);
  if (!res.ok) throw new ApiError(errorMessage(body, res.status), res.status, body);
  return schema.parse(body);
}

/** For calls whose answer is plain text (tles.txt, picture upload) or ignored. */
export async function apiText(path: string, options: RequestOptions = {}): Promise<string> {
  const res = await send(path, options);
  const text = await res.text();
  if (!res.ok) {
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    throw new ApiError(errorMessage(body, res.status), res.status, body);
  }
  return text;
}
