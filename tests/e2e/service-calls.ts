import { appUrl } from './browser.ts';

interface AppConfig {
  configUrl: string;
  apiKey: string;
}

let config: Promise<AppConfig> | undefined;
const appConfig = () => {
  config ??= fetch(appUrl('/app-config.json')).then((response) => response.json() as Promise<AppConfig>);
  return config;
};

/**
 * A call to the configuration service under test, as another client would make it (with the
 * `api-key` the app is given, and a Bearer token when `token` is set). Answers status and body.
 */
export async function configCall(
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const { configUrl, apiKey } = await appConfig();
  const headers: Record<string, string> = { 'content-type': 'application/json', 'api-key': apiKey };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(new URL(`${configUrl}${path}`, appUrl('/')), {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** A configuration access token of a user, from a sign-in of its own. */
export async function accessToken(user: { email: string; password: string }): Promise<string> {
  const answer = await configCall('POST', '/auth/v2/login', {
    body: { main_email: user.email, password: user.password },
  });
  if (answer.status !== 200) throw new Error(`sign-in of ${user.email}: ${answer.status}`);
  return (answer.body as { access_token: string }).access_token;
}
