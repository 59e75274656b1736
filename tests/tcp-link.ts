import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A device's link to the service, as a TCP relay on a free port of 127.0.0.1 that can be cut:
 * `cut()` breaks every connection through it and refuses new ones (closed as soon as they open)
 * until `restore()`. Devices connect to `port` instead of the service.
 * @example
 * const link = await TcpLink.open(servicePort);
 * link.cut(); … link.restore();
 */
export class TcpLink {
  private readonly pairs = new Set<[Socket, Socket]>();
  private down = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async open(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpLink> {
    let link: TcpLink | undefined;
    const server = createServer((inbound) => link?.relay(inbound, targetPort, targetHost));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('the link did not get a port');
    link = new TcpLink(server, address.port);
    return link;
  }

  private relay(inbound: Socket, port: number, host: string): void {
    if (this.down) {
      inbound.destroy();
      return;
    }
    const outbound = connect(port, host);
    const pair: [Socket, Socket] = [inbound, outbound];
    this.pairs.add(pair);
    const end = () => {
      this.pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    for (const socket of pair) {
      socket.setNoDelay(true);
      socket.on('error', end);
      socket.on('close', end);
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  }

  /** Whether the link is cut now. */
  get isDown(): boolean {
    return this.down;
  }

  /** Break every connection and refuse new ones until {@link restore}. */
  cut(): void {
    this.down = true;
    for (const [inbound, outbound] of this.pairs) {
      inbound.destroy();
      outbound.destroy();
    }
    this.pairs.clear();
  }

  restore(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
