/**
 * A stubbed transport for the real provider SDK clients: every request stops
 * at `fetch` (or at a request handler) with the body the SDK built, so a test
 * sees exactly what would be sent, and nothing reaches the network.
 */

/** Thrown by the transport, carrying the body; the SDKs wrap it, `bodyOf` unwraps it. */
export class Captured extends Error {
  constructor(readonly body: unknown) {
    super('captured');
  }
}

/** A `fetch` for an SDK's options: parses the body and stops there. */
export async function captureFetch(input: unknown, init?: { body?: unknown }): Promise<Response> {
  const body = init?.body ?? (input instanceof Request ? await input.text() : undefined);
  throw new Captured(JSON.parse(String(body)));
}

/** The body `send` would have sent (its rejection unwrapped down to the `Captured` inside). */
export async function bodyOf(send: () => Promise<unknown>): Promise<Record<string, unknown>> {
  const error = await send().then(
    () => undefined,
    (e: unknown) => e,
  );
  let cause: unknown = error;
  while (cause instanceof Error && !(cause instanceof Captured)) cause = cause.cause;
  if (!(cause instanceof Captured)) throw error;
  return cause.body as Record<string, unknown>;
}

/** The Bedrock client's options for a transport that stops at its request handler, as `captureFetch` does for the others. */
export const CAPTURING_BEDROCK = {
  region: 'us-east-1',
  credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  maxAttempts: 1,
  requestHandler: {
    handle: async (request: { body?: unknown }) => {
      const body = request.body instanceof Uint8Array ? new TextDecoder().decode(request.body) : String(request.body);
      throw new Captured(JSON.parse(body));
    },
  } as never,
};
