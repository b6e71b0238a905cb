import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { act, render, type RenderResult } from '@testing-library/preact';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AppProviders } from '../src/app/AppProviders';
import { createQueryClient } from '../src/lib/queryClient';

/** The app's own client (error logging included), without the retry delay. */
export function testQueryClient(): QueryClient {
  const client = createQueryClient();
  client.setDefaultOptions({ queries: { ...client.getDefaultOptions().queries, retry: false } });
  return client;
}

/** Shows the current path so tests can assert where a click navigated. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

interface Options {
  /** initial URL */
  route?: string;
  /** route pattern the element is mounted at */
  path?: string;
  /** the query client, to share one session's cache between renders; a new one otherwise */
  client?: QueryClient;
}

export function renderWithApp(
  element: ReactElement,
  { route = '/', path = '*', client = testQueryClient() }: Options = {},
): RenderResult {
  return render(
    <QueryClientProvider client={client}>
      <AppProviders>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={element} />
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>
    </QueryClientProvider>,
  );
}

/** Moves a test's fake clock on by `ms`, inside act() so that what the timers set off is rendered. */
export async function advanceTimers(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
