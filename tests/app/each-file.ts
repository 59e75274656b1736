import { cleanup } from '@testing-library/react';
import { afterAll } from 'vitest';
import { setViewport } from './dom-setup.ts';

// The dom files of a worker share one page and one module graph (vitest.config.ts): after its last
// test, each file unmounts what it rendered (and with it what those trees listen to, such as the
// toasts' store), and leaves the page, its storage and its width as the next file expects them.
afterAll(() => {
  cleanup();
  document.body.replaceChildren();
  window.localStorage.clear();
  window.sessionStorage.clear();
  setViewport('wide');
});
