import { EARLY_INPUT_KEY, type EarlyInput, type HeldPress } from './early-input-contract.ts';

/**
 * Ends the holding of presses a prerendered page starts before the app runs (before-app.ts), once
 * React has the page. Returns the press made meanwhile, if any. A page that was not prerendered
 * (the dev server) holds nothing: null.
 */
export function releaseEarlyInput(): HeldPress | null {
  const slot = window as unknown as Partial<Record<string, EarlyInput>>;
  const early = slot[EARLY_INPUT_KEY];
  // Should the guard arrive after this, it finds the app started and holds nothing.
  slot[EARLY_INPUT_KEY] = { release: () => null };
  return early?.release() ?? null;
}

/**
 * Makes a held press again, now for the app: a click on the link, or on the button that made the
 * submission. React hydrates the part of the page a click lands on at once, before the browser
 * submits the form or follows the link, so the app's own handler takes it (a bare `submit` event
 * would reach React before it had that part of the page). A link or form gone meanwhile is left.
 *
 * Called from an effect, it clicks in a microtask: inside React's own commit React would only
 * schedule that hydration, and the click would arrive first.
 */
export function pressAgain(held: HeldPress | null): void {
  if (!held) return;
  queueMicrotask(() => {
    if ('link' in held) {
      if (held.link.isConnected) held.link.click();
    } else clickToSubmit(held);
  });
}

function clickToSubmit(held: { form: HTMLFormElement; submitter: HTMLElement | null }) {
  if (!held.form.isConnected) return;
  const button =
    held.submitter?.isConnected === true
      ? held.submitter
      : held.form.querySelector<HTMLElement>('button[type="submit"], input[type="submit"]');
  if (button) button.click();
  else held.form.requestSubmit();
}
