/** A submission made before the app ran: the form, and the button that made it (null for Enter with none). */
export interface HeldSubmission {
  form: HTMLFormElement;
  submitter: HTMLElement | null;
}

/**
 * What the script a prerendered page runs before the app (`before-app.ts`) leaves for the app on
 * `window`: the app ends its holding of submissions once React has the page.
 */
export interface EarlyInput {
  /** Stops holding submissions; returns the one made while they were held, if any. */
  release(): HeldSubmission | null;
}

/** The property of `window` the early-input guard sits under. */
export const EARLY_INPUT_KEY = '__fleetEarlyInput';

/** Set on `<html>` while a submission waits for the app: the stylesheet marks its button busy. */
export const STARTING_ATTRIBUTE = 'data-fm-starting';
