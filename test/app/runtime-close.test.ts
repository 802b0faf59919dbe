/**
 * Closing the runtime of a front door that shuts down (docs/serve.md, "Safety"; docs/mcp.md):
 * once no caller waits, a request still in flight — an evaluation a caller gave up on, waiting on
 * a host that accepts connections and never answers — is aborted, not waited for until its own
 * timeout (15 s for the headers); the command line's close still lets requests finish.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/app/runtime.js';
import { cliEnv } from '../support/run-cli.js';
import { freshHome } from '../serve/support.js';
import { rmSync } from 'node:fs';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** A host that accepts connections and never answers. */
async function silentHost(): Promise<string> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const { port } = server.address() as net.AddressInfo;
  return `http://127.0.0.1:${port}`;
}

describe('runtime.close', () => {
  it('abandoning: a request in flight to a silent host is aborted, and close returns once it has settled', async () => {
    const host = await silentHost();
    const home = freshHome();
    cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    const runtime = createRuntime({ env: cliEnv(home), cwd: home });
    let settled: string | null = null;
    const pending = runtime.http.request({ url: `${host}/osv/v1/vulns/GHSA-x`, retry: false }).then(
      (answer) => (settled = answer.ok ? 'answered' : answer.kind),
      () => (settled = 'rejected'),
    );
    // Let the request reach the host.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(settled).toBeNull();
    await runtime.close({ abandon: true });
    await pending;
    expect(settled).not.toBeNull();
    expect(settled).not.toBe('answered');
  }, 8_000);
});
