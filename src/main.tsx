import '@mantine/core/styles.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { appConfigSchema } from '../contracts/app-config.ts';
import { AppRoot } from './components/app-root.tsx';
import { createApp } from './components/create-app.ts';

const CONFIG_PATH = '/app-config.json';

// Base URLs and keys come from the server that hosts the app, so one build runs against any
// deployment of the API. Nothing renders until the configuration is known.
async function loadConfig() {
  const response = await fetch(CONFIG_PATH, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${CONFIG_PATH} answered HTTP ${response.status}`);
  const parsed = appConfigSchema.safeParse(await response.json());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${CONFIG_PATH} is invalid: ${issue?.path.join('.') || 'value'}: ${issue?.message}`);
  }
  return parsed.data;
}

function showStartupError(container: HTMLElement, error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
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

async function start(container: HTMLElement) {
  try {
    const config = await loadConfig();
    const { runtime, router } = createApp(config, { storage: window.localStorage });
    createRoot(container).render(
      <StrictMode>
        <AppRoot runtime={runtime} router={router} />
      </StrictMode>,
    );
  } catch (error) {
    showStartupError(container, error);
  }
}

const container = document.getElementById('root');
if (container) void start(container);
