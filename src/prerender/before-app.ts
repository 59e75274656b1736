// A prerendered page loads this small classic script in its <head>, before its markup, so it runs
// before any form exists. The browser's own submission of a form is a GET with every named field
// in the URL, the password too; the app never submits a form that way (React's handlers take every
// submission), so this stops them all, for the life of the page. Before the app runs it also keeps
// the submission (a press of "Sign in", Enter in a field) for the app to make again once it has
// the page (`releaseEarlyInput` in src/prerender/early-input.ts).
import {
  EARLY_INPUT_KEY,
  type EarlyInput,
  type HeldSubmission,
  STARTING_ATTRIBUTE,
} from './early-input-contract.ts';

(() => {
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
