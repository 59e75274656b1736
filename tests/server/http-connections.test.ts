import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../server/env.ts';
import { startTestServer, type TestServer } from './harness.ts';

/**
 * How the server holds HTTP connections: kept alive longer than a load balancer keeps its own
 * (Node's 5 s default gave sporadic 502s behind a 60 s balancer), and every request that asks to
 * upgrade on a path other than the device socket (curl --http2 sends `Upgrade: h2c`) is served as
 * plain HTTP/1.1 on the same connection instead of answering 404.
 */
let t: TestServer;
let port = 0;

beforeAll(async () => {
  t = await startTestServer();
  port = Number(new URL(t.origin).port);
});
afterAll(() => t.close());

/** Send raw requests on one connection and collect the answers until `answers` have come. */
function exchange(requests: string[], answers: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    const heads: string[] = [];
    socket.setEncoding('latin1');
    socket.on('error', reject);
    socket.on('close', () => resolve(heads));
    socket.on('data', (chunk: string) => {
      text += chunk;
      for (;;) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = text.slice(0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (text.length < end + 4 + length) return;
        heads.push(`${head}\r\n\r\n${text.slice(end + 4, end + 4 + length)}`);
        text = text.slice(end + 4 + length);
        if (heads.length === answers) socket.end();
      }
    });
    for (const request of requests) socket.write(request);
  });
}

const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: dev-api-key\r\n${headers}\r\n`;

describe('kept-alive connections', () => {
  it('stay open 65 s by default, above a balancer idle timeout of 60 s', async () => {
    const [answer] = await exchange([get('/app-config.json')], 1);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
  });

  it('follow HTTP_KEEP_ALIVE_TIMEOUT_S, and the header and request timeouts must come after it', () => {
    expect(
      parseEnv({
        HTTP_KEEP_ALIVE_TIMEOUT_S: '125',
        HTTP_HEADERS_TIMEOUT_S: '126',
        HTTP_REQUEST_TIMEOUT_S: '300',
      }),
    ).toMatchObject({
      HTTP_KEEP_ALIVE_TIMEOUT_S: 125,
      HTTP_HEADERS_TIMEOUT_S: 126,
      HTTP_REQUEST_TIMEOUT_S: 300,
    });
    expect(() => parseEnv({ HTTP_KEEP_ALIVE_TIMEOUT_S: '70' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_S: must be more than HTTP_KEEP_ALIVE_TIMEOUT_S \(70\)/,
    );
    expect(() => parseEnv({ HTTP_REQUEST_TIMEOUT_S: '30' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_S: must be at least HTTP_HEADERS_TIMEOUT_S \(66\)/,
    );
  });
});

describe('a request that asks to upgrade', () => {
  it('is served as HTTP/1.1 on every path but the device socket, body and keep-alive included', async () => {
    const h2c =
      'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n';
    const body = JSON.stringify({ main_email: 'nobody@example.com', password: 'wrong-password' });
    const answers = await exchange(
      [
        get('/app-config.json', h2c),
        `POST /config/auth/v2/login HTTP/1.1\r\nHost: 127.0.0.1\r\napi-key: dev-api-key\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n${h2c}\r\n${body}`,
        get('/config/openapi.json', 'Connection: Upgrade\r\nUpgrade: websocket\r\n'),
      ],
      3,
    );
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 401', 'HTTP/1.1 200']);
    expect(answers[0]).toContain('"configUrl":"/config"');
    expect(answers[1]).toContain('invalid_credentials');
  });
});
