// A prerendered page loads this small script first thing (async, so it holds nothing up): it keeps a
// submission made before the app runs (a press of "Sign in", Enter in a field) for the app to make
// again once it has the page (`releaseEarlyInput` in src/prerender/early-input.ts). It also stops
// the browser's own submission of any form, for the life of the page: that is a GET with every
// named field in the URL, the password too, and the app never submits a form that way (React's
// handlers take every submission). The sign-in form is safe on its own too (`method="dialog"`).
import {
  EARLY_INPUT_KEY,
  type EarlyInput,
  type HeldSubmission,
  STARTING_ATTRIBUTE,
} from './early-input-contract.ts';

(() => {
  // The app may, rarely, have started before this arrived: then there is nothing to hold.
  if ((window as unknown as Record<string, EarlyInput | undefined>)[EARLY_INPUT_KEY]) return;
  let holding = true;
  let held: HeldSubmission | null = null;
  window.addEventListener(
    'submit',
    (event) => {
      event.preventDefault();
      if (!holding || !(event.target instanceof HTMLFormElement)) return;
      held = { form: event.target, submitter: (event as SubmitEvent).submitter };
      // A mark outside the app's markup (which must stay as rendered until React has it): the
      // stylesheet shows the form's button busy until the app has started.
      document.documentElement.setAttribute(STARTING_ATTRIBUTE, '');
    },
    true,
  );
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
