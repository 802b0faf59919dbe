import check from '../../src/checks/security-placeholder.js';
import { evidence, versionsAgo } from '../support/evidence-builder.js';
import { checkTable } from './check-table.js';

checkTable(check, [
  {
    name: 'security-holding placeholder',
    evidence: evidence({
      registry: {
        version: '0.0.1-security',
        versions: versionsAgo([['0.0.1-security', 300]]),
        description: 'security holding package',
        securityHolding: true,
      },
    }),
    score: 0,
    messageId: 'placeholder',
    data: { securityHolding: true, version: '0.0.1-security' },
    caps: [
      {
        id: 'security-placeholder',
        limit: 9.9,
        doNotUse: true,
        reason: 'the registry replaced this package with a security-holding placeholder (it was malicious)',
      },
    ],
  },
  { name: 'genuine package', evidence: evidence(), score: 100, messageId: 'genuine', data: { securityHolding: false } },
]);
