import { ADMIN, appUrl } from './browser.ts';

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

/**
 * A new installer of a test's own (made by the demo's admin), so what the test changes touches no
 * other test's sign-in. @throws unless the service answers 201.
 */
export async function createInstaller(user: {
  email: string;
  password: string;
  name: string;
}): Promise<{ id: number }> {
  const made = await configCall('POST', '/fleet/users/create-installer', {
    token: await accessToken(ADMIN),
    body: { main_email: user.email, name: user.name, password: user.password },
  });
  if (made.status !== 201)
    throw new Error(`creating ${user.email}: ${made.status} ${JSON.stringify(made.body)}`);
  return made.body as { id: number };
}
