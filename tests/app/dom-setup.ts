// jsdom lacks the layout APIs Mantine asks for; these stand-ins report a wide screen with
// no motion preference.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

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
