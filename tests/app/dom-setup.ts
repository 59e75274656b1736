import { configure, getConfig } from '@testing-library/react';

// jsdom lacks the layout APIs Mantine asks for. These stand-ins answer media queries for a
// chosen viewport width (wide by default) with no motion preference.

const WIDTHS = { wide: 1280, phone: 390 } as const;
let viewportWidth: number = WIDTHS.wide;

/** Answers `(min-width: …)` and `(max-width: …)` (px or em) for the current width; others do not match. */
function matches(query: string): boolean {
  const conditions = [...query.matchAll(/\((min|max)-width:\s*([\d.]+)(px|em|rem)\)/g)];
  if (conditions.length === 0) return false;
  return conditions.every(([, kind, value, unit]) => {
    const px = Number(value) * (unit === 'px' ? 1 : 16);
    return kind === 'min' ? viewportWidth >= px : viewportWidth <= px;
  });
}

/** Sets the width media queries see from now on: a wide screen or a phone. */
export function setViewport(kind: keyof typeof WIDTHS): void {
  viewportWidth = WIDTHS[kind];
}

window.matchMedia = (query: string) =>
  ({
    matches: matches(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.assign(window, { ResizeObserver: ResizeObserverStub });
}

Element.prototype.scrollIntoView ??= () => {};

// The router restores scroll positions; jsdom has no scrolling.
window.scrollTo = () => {};

// testing-library's own error for a query that found nothing: its message, then the page searched.
const pageNamingError = getConfig().getElementError;

// Each screen's code is a separate chunk, transformed on first use: on a busy machine the first
// visit of a screen can take seconds, which is not what these tests are about.
configure({ asyncUtilTimeout: 10_000, getElementError: elementError });

/**
 * testing-library's error for a query that found nothing ({@link pageNamingError}), made only when
 * its message is read: when a test fails on it, or when a wait times out on it. `findBy…` and
 * `waitFor` make and drop such an error every 50 ms until what they wait for appears, and writing
 * out the whole page each time was about an eighth of the CPU of a test that types into a form.
 */
function elementError(message: string | null, container: Element): Error {
  const error = new Error();
  error.name = 'TestingLibraryElementError';
  let text: string | undefined;
  Object.defineProperty(error, 'message', {
    configurable: true,
    get: () => {
      text ??= pageNamingError(message, container).message;
      return text;
    },
  });
  return error;
}
