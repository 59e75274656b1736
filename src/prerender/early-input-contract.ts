/**
 * A press made before the app ran: a submission (the form, and the button that made it; null for
 * Enter with none), or a link of a form, such as the sign-in form's "I have a code", which would
 * otherwise load its step as a new page and lose what was typed.
 */
export type HeldPress =
  | { form: HTMLFormElement; submitter: HTMLElement | null }
  | { link: HTMLAnchorElement };

/**
 * What the script a prerendered page runs before the app (`before-app.ts`) leaves for the app on
 * `window`: the app ends its holding of submissions once React has the page.
 */
export interface EarlyInput {
  /** Stops holding presses; returns the last one made while they were held, if any. */
  release(): HeldPress | null;
}

/** The property of `window` the early-input guard sits under. */
export const EARLY_INPUT_KEY = '__fleetEarlyInput';

/** Set on `<html>` while a press waits for the app: the stylesheet marks the form's button busy. */
export const STARTING_ATTRIBUTE = 'data-fm-starting';
