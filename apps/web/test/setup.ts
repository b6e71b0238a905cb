import '@testing-library/jest-dom/vitest';
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/preact';
import { configure as configureDom } from '@testing-library/dom';
import { act } from 'preact/test-utils';

// findBy* and waitFor wait this long for what a screen shows after loading its code on demand:
// a first import takes seconds on a busy machine (a wait, not a time the tests assert).
configure({ asyncUtilTimeout: 5_000 });

// user-event drives the DOM Testing Library it depends on, not the copy inside Preact's Testing
// Library: its events are wrapped in Preact's act() too, so effects and renders they cause are
// flushed before the next step, with fake timers as with real ones (Preact runs effects from a
// timer; React from a message channel that fake timers do not hold).
configureDom({
  asyncUtilTimeout: 5_000,
  eventWrapper: (cb) => {
    let result: unknown;
    act(() => {
      result = cb();
    });
    return result;
  },
  asyncWrapper: async (cb) => {
    let result: unknown;
    await act(async () => {
      result = await cb();
    });
    return result;
  },
});

// jsdom has no matchMedia; MUI's colour-scheme and media-query hooks need one.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// jsdom does not implement scrolling.
window.scrollTo = () => undefined;

afterEach(() => {
  // Inside act(): the effects' clean-ups of what the test left mounted run now (Preact runs them
  // after the next frame otherwise), before the storage they may write to is cleared.
  act(() => cleanup());
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
