// A prerendered page loads this small script first thing (async, so it holds nothing up): it keeps a
// press made before the app runs (a press of "Sign in", Enter in a field, a link of the form such as
// "I have a code") for the app to make again once it has the page (`releaseEarlyInput` in
// src/prerender/early-input.ts). A link would otherwise load its step as a new page, without what
// was typed into the form. It also stops
// the browser's own submission of any form, for the life of the page: that is a GET with every
// named field in the URL, the password too, and the app never submits a form that way (React's
// handlers take every submission). The sign-in form is safe on its own too (`method="dialog"`).
import {
  EARLY_INPUT_KEY,
  type EarlyInput,
  type HeldPress,
  STARTING_ATTRIBUTE,
} from './early-input-contract.ts';

(() => {
  // The app may, rarely, have started before this arrived: then there is nothing to hold.
  if ((window as unknown as Record<string, EarlyInput | undefined>)[EARLY_INPUT_KEY]) return;
  let holding = true;
  let held: HeldPress | null = null;
  window.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      if (!holding || !(event.target instanceof HTMLFormElement)) return;
      hold({ form: event.target, submitter: (event as SubmitEvent).submitter });
    },
    true,
  );
  window.addEventListener(
    'click',
    (event) => {
      if (!holding || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement) || !link.closest('form') || link.origin !== location.origin)
        return;
      event.preventDefault();
      hold({ link });
    },
    true,
  );
  function hold(press: HeldPress) {
    held = press;
    // A mark outside the app's markup (which must stay as rendered until React has it): the
    // stylesheet shows the form's button busy until the app has started.
    document.documentElement.setAttribute(STARTING_ATTRIBUTE, '');
  }
  const early: EarlyInput = {
    release() {
      holding = false;
      document.documentElement.removeAttribute(STARTING_ATTRIBUTE);
      const submission = held;
      held = null;
      return submission;
    },
  };
  (window as unknown as Record<string, EarlyInput>)[EARLY_INPUT_KEY] = early;
})();
