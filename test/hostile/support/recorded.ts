/** Recorded answers as the fixture server sends them: the file for a request path, placeholders filled. */
import { readFileSync } from 'node:fs';
import { fixtureFileFor, FIXTURES_ROOT, type FixtureServer } from '../../support/fixture-server.js';

/** Fill the fixture server's placeholders as it does for text bodies. */
export function fill(text: string, server: FixtureServer): string {
  return text.replaceAll('{{REGISTRY}}', `${server.origin}/npm`).replaceAll('{{ORIGIN}}', server.origin);
}

/** The recorded answer of `requestPath` (a path under fixtures/http, with or without `.json`). */
export function recordedAnswer(server: FixtureServer, requestPath: string): Buffer {
  const file = fixtureFileFor(FIXTURES_ROOT, requestPath);
  if (file === undefined) throw new Error(`no recorded answer for ${requestPath}`);
  return Buffer.from(fill(readFileSync(file, 'utf8'), server));
}
