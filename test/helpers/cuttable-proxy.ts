import { createServer, connect, type Socket } from "node:net";

export interface CuttableProxy {
  url: string;
  /** Destroys every open connection, as a lost network does to a response being read. */
  cut(): void;
  close(): Promise<void>;
}

/**
 * A TCP pass-through to a local server whose connections a test can cut: browsers' offline
 * emulation refuses new requests but leaves a response that is already streaming alone.
 */
export async function startCuttableProxy(target: string): Promise<CuttableProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("close", () => open.delete(s));
      s.on("error", () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => open.forEach((s) => s.destroy()),
    close: () =>
      new Promise<void>((r) => {
        open.forEach((s) => s.destroy());
        server.close(() => r());
      }),
  };
}
