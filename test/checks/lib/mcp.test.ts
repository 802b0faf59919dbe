/** Pure helpers of the MCP entry checks and the README `mcp-name:` reader. */
import { describe, expect, it } from 'vitest';
import { hostBelongs, namespaceDomain, wideningArguments } from '../../../src/checks/lib/mcp.js';
import { readmeMcpNames } from '../../../src/ecosystems/mcp/claims.js';

describe('helpers', () => {
  it('README mcp-name lines, in a comment or not, with a boundary', () => {
    expect(readmeMcpNames('# x\n<!-- mcp-name: io.github.a/b -->\nmcp-name: io.github.c/d\n')).toEqual(['io.github.a/b', 'io.github.c/d']);
    expect(readmeMcpNames('see mcp-name: io.github.a/b. and more')).toEqual([]);
  });
  it('namespace domains, host ownership, widening', () => {
    expect(namespaceDomain('com.example.tools/x')).toBe('tools.example.com');
    expect(hostBelongs('api.tools.example.com', 'com.example.tools/x', null)).toBe(true);
    expect(hostBelongs('evil-example.com', 'com.example/x', null)).toBe(false);
    expect(hostBelongs('mcp.example', 'io.github.x/y', 'example')).toBe(false);
    expect(wideningArguments(['--network bridge', '--net=host'])).toEqual([{ id: 'host-network', argument: '--net=host' }]);
    expect(wideningArguments(['-v /:/host', '--volume=/://h:ro', '-v /data:/data', '--mount type=bind,source=/,target=/h', '--mount type=bind,source=/srv,target=/s']).map((f) => f.id)).toEqual([
      'host-root-mount',
      'host-root-mount',
      'host-root-mount',
    ]);
    expect(wideningArguments(['--cap-add SYS_ADMIN', '--cap-add=NET_ADMIN', '--cap-drop ALL']).map((f) => f.id)).toEqual(['added-capability', 'added-capability']);
  });
});
