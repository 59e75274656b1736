/** Replaces the page with why Fleet Manager could not start (no configuration, no app code). */
export function showStartupError(container: HTMLElement, error: unknown) {
  const message = navigator.onLine
    ? error instanceof Error
      ? error.message
      : String(error)
    : 'You are offline, and Fleet Manager has not been opened on this device with a connection yet. Connect once; after that it opens without a signal.';
  console.error('Fleet Manager could not start:', error);
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:1rem';
  const title = document.createElement('h1');
  title.textContent = 'Fleet Manager could not start';
  const detail = document.createElement('p');
  detail.textContent = message;
  box.append(title, detail);
  container.replaceChildren(box);
}
