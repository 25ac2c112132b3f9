import type { IncomingMessage, ServerResponse } from "node:http";

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<unknown>;

/**
 * A test server's async handler whose client went away mid-request ends quietly. The worker drops
 * requests that are still out when a test file ends (its Durable Objects are stopped), and reading
 * such a request's body rejects with "aborted": the test that sent it is over, so nothing is owed.
 * Any other failure stays an unhandled error, as a broken fake should.
 */
export function settled(handler: Handler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handler(req, res).catch((err: unknown) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (req.destroyed || code === "ECONNRESET" || code === "ERR_STREAM_PREMATURE_CLOSE") return void res.destroy();
      throw err;
    });
  };
}
